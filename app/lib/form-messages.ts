// Messages written in English in modules the Node server loads as they are (zod schemas,
// rules in .server.ts files), where Lingui's macros cannot run: listed here under their English
// text, so a public form shows them translated (field.tsx and error-summary.tsx pass each
// error through i18n._). Read by `lingui extract`; form-messages.test.ts checks each is still
// written somewhere in the code.
import { msg } from '@lingui/core/macro'

export const formMessages = [
	msg({
		id: 'Enter an email address like name@example.org, so we can reply.',
		message: 'Enter an email address like name@example.org, so we can reply.',
	}),
	msg({
		id: 'Enter an email address like name@example.org.',
		message: 'Enter an email address like name@example.org.',
	}),
	msg({
		id: 'Enter your email address, so we can reply.',
		message: 'Enter your email address, so we can reply.',
	}),
	msg({ id: 'Enter your email address.', message: 'Enter your email address.' }),
	msg({
		id: 'Enter your name, so we know who is writing.',
		message: 'Enter your name, so we know who is writing.',
	}),
	msg({ id: 'Enter your name.', message: 'Enter your name.' }),
	msg({
		id: 'That address is too long to be an email address.',
		message: 'That address is too long to be an email address.',
	}),
	msg({ id: 'The subject must be text.', message: 'The subject must be text.' }),
	msg({
		id: 'This address is no longer subscribed. Subscribe again if you would like the newsletter.',
		message:
			'This address is no longer subscribed. Subscribe again if you would like the newsletter.',
	}),
	msg({
		id: 'This confirmation link has expired. Subscribe again and follow the link in the new mail.',
		message:
			'This confirmation link has expired. Subscribe again and follow the link in the new mail.',
	}),
	msg({
		id: 'This email address is too long. Check it and try again.',
		message: 'This email address is too long. Check it and try again.',
	}),
	msg({
		id: 'This form is out of date. Reload the page, then send your message again.',
		message: 'This form is out of date. Reload the page, then send your message again.',
	}),
	msg({
		id: 'This link is not complete or not one of ours. Open it again from the mail, or copy the whole address into the browser.',
		message:
			'This link is not complete or not one of ours. Open it again from the mail, or copy the whole address into the browser.',
	}),
	msg({
		id: 'Type a word to look for: letters or digits, not only signs or words to leave out.',
		message: 'Type a word to look for: letters or digits, not only signs or words to leave out.',
	}),
	msg({ id: 'Write your message.', message: 'Write your message.' }),
	msg({
		id: 'Write at least 10 characters, so we understand what you need.',
		message: 'Write at least 10 characters, so we understand what you need.',
	}),
	msg({
		id: 'Keep your message to 5,000 characters or fewer.',
		message: 'Keep your message to 5,000 characters or fewer.',
	}),
	msg({
		id: 'Keep your name to 100 characters or fewer.',
		message: 'Keep your name to 100 characters or fewer.',
	}),
	msg({
		id: 'Keep the subject to 150 characters or fewer.',
		message: 'Keep the subject to 150 characters or fewer.',
	}),
]
