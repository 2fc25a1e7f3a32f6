// The part of autocannon 9's programmatic API the benchmarks use (the package ships no types).
declare module 'autocannon' {
	export interface Options {
		url: string
		connections?: number
		pipelining?: number
		/** Seconds. */
		duration?: number
		/** Seconds to wait for a response. */
		timeout?: number
		headers?: Record<string, string>
		title?: string
		/** Exactly this many requests (duration is then ignored); every answer is awaited. */
		amount?: number
		requests?: RequestOptions[]
	}

	export interface RequestOptions {
		method?: string
		path?: string
		headers?: Record<string, string>
		body?: string
		/** Called before each request; returns the request to send. */
		setupRequest?: (request: RequestOptions) => RequestOptions
	}

	export interface Histogram {
		average: number
		mean: number
		stddev: number
		min: number
		max: number
		p2_5: number
		p50: number
		p75: number
		p90: number
		p97_5: number
		p99: number
		p99_9: number
		total: number
	}

	export interface Result {
		requests: Histogram & { sent: number }
		/** Milliseconds. */
		latency: Histogram & { totalCount: number }
		/** Bytes per second. */
		throughput: Histogram
		/** Seconds. */
		duration: number
		errors: number
		timeouts: number
		non2xx: number
		'2xx': number
		/** Answers per status code. */
		statusCodeStats: Record<string, { count: number }>
	}

	export interface Instance {
		/** Every answer, as it arrives. */
		on(event: 'response', listener: () => void): void
	}

	function autocannon(options: Options): Promise<Result>
	function autocannon(
		options: Options,
		done: (error: Error | null, result: Result) => void,
	): Instance
	export default autocannon
}
