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
