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
	}

	export default function autocannon(options: Options): Promise<Result>
}
