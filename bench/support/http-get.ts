// A GET that returns the bytes as they crossed the wire: fetch() would decompress them, and
// page weight is about what was sent.
import { type Agent, request } from 'node:http'

export interface RawResponse {
	status: number
	headers: Record<string, string | string[] | undefined>
	body: Buffer
}

export function getRaw(
	url: string,
	headers: Record<string, string> = {},
	timeoutMs = 10_000,
	/** A kept-alive connection to reuse (the metrics scrapes); none: a connection per request. */
	agent: Agent | false = false,
): Promise<RawResponse> {
	return new Promise((resolve, reject) => {
		const req = request(url, { headers, agent, timeout: timeoutMs }, (res) => {
			const chunks: Buffer[] = []
			res.on('data', (chunk: Buffer) => chunks.push(chunk))
			res.on('end', () =>
				resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
			)
			res.on('error', reject)
		})
		req.on('timeout', () => req.destroy(new Error(`GET ${url} took longer than ${timeoutMs} ms`)))
		req.on('error', reject)
		req.end()
	})
}

export async function getOk(
	url: string,
	headers: Record<string, string> = {},
): Promise<RawResponse> {
	const response = await getRaw(url, headers)
	if (response.status !== 200)
		throw new Error(`GET ${url} answered ${response.status}, expected 200`)
	return response
}
