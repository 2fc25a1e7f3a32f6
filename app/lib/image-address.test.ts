import { describe, expect, it } from 'vitest'
import { isImageAddress } from './image-address.ts'

describe('isImageAddress', () => {
	it('takes a path on this site or a whole https:// address', () => {
		for (const good of ['/media/2026/heron.webp', '/logo.svg', 'https://images.example.org/a.jpg'])
			expect(isImageAddress(good)).toBe(true)
	})

	it('refuses script, data, another host behind "//", plain http and spaces', () => {
		for (const bad of [
			'javascript:alert(1)',
			'data:image/png;base64,AAAA',
			'//evil.example/x.png',
			'/\\evil.example/x.png',
			'http://images.example.org/a.jpg',
			'/media/a b.jpg',
			'https://images.example.org/a b.jpg',
			'media/a.jpg',
			'',
		])
			expect(isImageAddress(bad), bad).toBe(false)
	})
})
