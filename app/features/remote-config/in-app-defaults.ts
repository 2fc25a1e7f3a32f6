// The values the code uses when nothing is set: the one list of them, kept apart from
// parameters.ts so pages can fall back to them without its schemas (zod) in first-view JS.
export const inAppDefaults = {
	banner_message: '',
	banner_link: '',
	banner_enabled: true,
	home_latest_count: 3,
	push_prompt_enabled: true,
	contact_form_enabled: true,
	articles_page_size: 10,
}
