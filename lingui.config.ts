import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

// What only staff see: its messages go to the staff catalogue, which readers' browsers never load.
const staffOnly = [
	'<rootDir>/app/routes/admin/**',
	'<rootDir>/app/features/staff/**',
	'<rootDir>/app/features/**/*{admin,editor,dashboard,revision,team-list,config-value-control,config-form,describe,parameters,subscriber,media-library,danger,notify-field,markdown-toolbar,markdown-images,image-upload-field,upload-image,push-results,new-password-field}*',
	'<rootDir>/app/components/ui/{delete-confirmation,pager,leave-guard}.tsx',
]
// Public pages most readers never open (the contact form, the newsletter's pages, search): their
// messages load with those pages (a clientLoader each), so an article page carries only its own.
const formPages = [
	'<rootDir>/app/routes/{contact,search,newsletter,newsletter-*}.tsx',
	'<rootDir>/app/features/contact/contact-form.tsx',
	'<rootDir>/app/features/newsletter/{manage,subscribe}.server.ts',
	'<rootDir>/app/lib/form-messages.ts',
]
// The newsletter's mails, rendered on the server only: no browser loads their messages.
const mailOnly = [
	'<rootDir>/app/features/newsletter/{newsletter-mail.tsx,mail-layout.tsx,mail-parts.ts}',
]
const notMessages = ['**/*.test.*', '**/node_modules/**']

/**
 * The interface's message catalogues (decision 033): per language, what every public page shows,
 * which a reader's browser loads with the page; the forms' pages'; and the staff area's, which
 * only staff load.
 */
export default defineConfig({
	sourceLocale: 'en',
	locales: ['en', 'es', 'fr', 'ar'],
	fallbackLocales: { default: 'en' },
	orderBy: 'origin',
	// Origins without line numbers: moving code does not change the catalogues, and
	// `lingui check sync` (npm test) fails only when a message was added, changed or removed.
	format: formatter({ lineNumbers: false }),
	// <Trans> that keeps a value's own "<…>" as text (app/lib/trans.tsx).
	runtimeConfigModule: { Trans: ['#app/lib/trans.tsx', 'Trans'] },
	catalogs: [
		{ path: '<rootDir>/app/locales/{locale}/staff', include: staffOnly, exclude: notMessages },
		{ path: '<rootDir>/app/locales/{locale}/forms', include: formPages, exclude: notMessages },
		{ path: '<rootDir>/app/locales/{locale}/mail', include: mailOnly, exclude: notMessages },
		{
			path: '<rootDir>/app/locales/{locale}/public',
			include: ['<rootDir>/app'],
			exclude: [...notMessages, ...staffOnly, ...formPages, ...mailOnly],
		},
	],
})
