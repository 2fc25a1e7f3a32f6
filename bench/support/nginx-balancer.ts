// nginx as the load balancer in front of Canopy instances, as a deployment would have it:
// round robin over the instances, keep-alive connections to them, HTTP/1.1. Started from a
// config of its own in a temp folder, in the foreground as one process (no master and worker
// pair, so killing it leaves nothing behind; one worker's worth of CPU either way). When
// nginx is not installed the caller is told why, and measures without it.
import { spawn, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { accepts } from '#tests/fixtures/nginx.ts'
import { freePort } from './canopy-server.ts'
import { pollUntil, stopProcess, trackChild } from './processes.ts'

export interface Balancer {
	url: string
	pid: number
	stop(): Promise<void>
}

const nginxBinary = 'nginx'

/** The nginx version line, or undefined when there is no nginx on PATH. */
export function nginxVersion(): string | undefined {
	const probe = spawnSync(nginxBinary, ['-v'], { encoding: 'utf8' })
	if (probe.error || probe.status !== 0) return undefined
	return probe.stderr.trim().replace(/^nginx version: /, '')
}

function config(dir: string, port: number, upstreams: number[]): string {
	return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	client_body_temp_path ${dir}/body;
	proxy_temp_path ${dir}/proxy;
	fastcgi_temp_path ${dir}/fastcgi;
	uwsgi_temp_path ${dir}/uwsgi;
	scgi_temp_path ${dir}/scgi;
	upstream canopy {
${upstreams.map((upstream) => `		server 127.0.0.1:${upstream};`).join('\n')}
		keepalive 64;
	}
	server {
		listen 127.0.0.1:${port};
		location / {
			proxy_pass http://canopy;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header Host $http_host;
			proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
		}
	}
}
`
}

/** Starts nginx balancing over `upstreams` (ports on 127.0.0.1). */
export async function startNginx(upstreams: number[]): Promise<Balancer> {
	const dir = mkdtempSync(join(tmpdir(), 'canopy-bench-nginx-'))
	// Run as root, nginx may switch to the nobody user: it must still reach the folder.
	chmodSync(dir, 0o755)
	const port = await freePort()
	writeFileSync(join(dir, 'nginx.conf'), config(dir, port, upstreams))
	const child = trackChild(
		spawn(nginxBinary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
			stdio: ['ignore', 'ignore', 'pipe'],
		}),
	)
	let stderr = ''
	child.stderr?.on('data', (chunk) => {
		stderr += chunk
	})
	const stop = async () => {
		// SIGQUIT: nginx's graceful stop; stopProcess sends SIGKILL if it lingers.
		child.kill('SIGQUIT')
		await stopProcess(child, 5_000)
		rmSync(dir, { recursive: true, force: true })
	}
	const up = await pollUntil(async () => child.exitCode === null && (await accepts(port)), 10_000)
	if (!up) {
		await stop()
		throw new Error(`nginx did not start: ${stderr.trim() || 'no output'}`)
	}
	return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop }
}
