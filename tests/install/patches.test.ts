// The patches in patches/ (decision 042), as `npm install` leaves them: patch-package applies each
// at install, and fails the install if one no longer applies. These check that what is installed
// is what the patches were made for, so a moved version cannot leave a patch silently unused.
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const patches = readdirSync(new URL('patches/', root)).filter((file) => file.endsWith('.patch'))

it('patches/ holds the React Router patch', () => {
	expect(patches).toContain('react-router+8.4.0.patch')
})

describe.each(patches)('%s', (file) => {
	// patch-package names a patch <package>+<version>.patch.
	const [, name, version] = /^(.+)\+([^+]+)\.patch$/.exec(file) ?? []

	it('is for the version installed', () => {
		const installed = JSON.parse(
			readFileSync(new URL(`node_modules/${name}/package.json`, root), 'utf8'),
		) as { version: string }
		expect(installed.version).toBe(version)
	})

	it('is applied: every line it adds is in the installed file', () => {
		const patch = readFileSync(new URL(`patches/${file}`, root), 'utf8')
		const byFile = patch.split(/^diff --git /m).slice(1)
		expect(byFile.length).toBeGreaterThan(0)
		for (const part of byFile) {
			const path = /^\+\+\+ b\/(.+)$/m.exec(part)?.[1]
			expect(path).toBeDefined()
			const installed = readFileSync(new URL(path as string, root), 'utf8')
			const added = part
				.split('\n')
				.filter((line) => line.startsWith('+') && !line.startsWith('+++'))
				.map((line) => line.slice(1))
			for (const line of added) expect(installed, `${path} lacks: ${line}`).toContain(line)
		}
	})
})
