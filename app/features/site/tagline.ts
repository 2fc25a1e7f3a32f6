import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { defaultSiteSettings, type SiteSettings } from './site-settings.ts'

/** The tagline a new site starts with (site-settings.ts), word for word. */
const startingTagline = msg`Clear, checkable reporting on climate, nature and the people working to protect them.`

/**
 * The site's tagline in words for this reader: the one a new site starts with reads in their
 * language until an admin writes the site's own, which is shown as written.
 */
export function taglineIn(i18n: I18n, site: Pick<SiteSettings, 'tagline'>): string {
	return site.tagline === defaultSiteSettings.tagline ? i18n._(startingTagline) : site.tagline
}
