const maxLength = 80

/** "Soil: the Living Ground!" → "soil-the-living-ground". */
export function slugify(title: string): string {
	return title
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/&/g, ' and ')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, maxLength)
		.replace(/-+$/g, '')
}

export const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * A tag's or an author's address: slugify's, or, for a name it leaves nothing of (one in a
 * script it does not spell, or only signs), one made from the name itself, the same every time.
 */
export function termSlug(kind: 'tag' | 'author', name: string): string {
	const made = slugify(name)
	if (made) return made
	// FNV-1a over the name's UTF-16 units: short, stable, and different for different names.
	let hash = 0x811c9dc5
	for (const unit of name.trim().normalize('NFC').toLowerCase())
		for (let i = 0; i < unit.length; i++)
			hash = Math.imul(hash ^ unit.charCodeAt(i), 0x01000193) >>> 0
	return `${kind}-${hash.toString(16).padStart(8, '0')}`
}
