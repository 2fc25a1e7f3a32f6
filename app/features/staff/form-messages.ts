// Messages written in English in modules the Node server loads as they are (zod schemas,
// rules in .server.ts files), where Lingui's macros cannot run: listed here under their English
// text, so a staff form shows them translated (field.tsx and error-summary.tsx pass each
// error through i18n._). Read by `lingui extract`; form-messages.test.ts checks each is still
// written somewhere in the code.
import { msg } from '@lingui/core/macro'

export const formMessages = [
	msg({
		id: 'A message in a banner at the top of every public page, which readers can dismiss. Empty: no banner.',
		message:
			'A message in a banner at the top of every public page, which readers can dismiss. Empty: no banner.',
	}),
	msg({
		id: 'Another article or page already uses this address. Choose another slug.',
		message: 'Another article or page already uses this address. Choose another slug.',
	}),
	msg({
		id: 'Archived. You will find it under Archived.',
		message: 'Archived. You will find it under Archived.',
	}),
	msg({ id: 'At most 500 characters.', message: 'At most 500 characters.' }),
	msg({
		id: 'At most two decimals, such as 12.5 or 0.25.',
		message: 'At most two decimals, such as 12.5 or 0.25.',
	}),
	msg({
		id: 'Choose a CSV file (.csv or .txt). Save a spreadsheet as CSV first.',
		message: 'Choose a CSV file (.csv or .txt). Save a spreadsheet as CSV first.',
	}),
	msg({
		id: 'Choose a CSV file of addresses to import.',
		message: 'Choose a CSV file of addresses to import.',
	}),
	msg({ id: 'Choose a day of the week.', message: 'Choose a day of the week.' }),
	msg({ id: 'Choose a key to revoke.', message: 'Choose a key to revoke.' }),
	msg({
		id: 'Choose a time in the future, or publish now.',
		message: 'Choose a time in the future, or publish now.',
	}),
	msg({
		id: 'Choose a time zone from the list, like Europe/Madrid.',
		message: 'Choose a time zone from the list, like Europe/Madrid.',
	}),
	msg({ id: 'Choose an account.', message: 'Choose an account.' }),
	msg({ id: 'Choose an hour from 0 to 23.', message: 'Choose an hour from 0 to 23.' }),
	msg({
		id: 'Choose at least one device, or leave devices out.',
		message: 'Choose at least one device, or leave devices out.',
	}),
	msg({ id: 'Choose languages from the list.', message: 'Choose languages from the list.' }),
	msg({
		id: 'Choose permanent (301) or temporary (302).',
		message: 'Choose permanent (301) or temporary (302).',
	}),
	msg({
		id: 'Choose the header or the footer menu.',
		message: 'Choose the header or the footer menu.',
	}),
	msg({
		id: 'Choose the last 7, 30 or 90 days, or dates of your own.',
		message: 'Choose the last 7, 30 or 90 days, or dates of your own.',
	}),
	msg({ id: 'Choose the one to merge into.', message: 'Choose the one to merge into.' }),
	msg({
		id: 'Choose the site’s language from the list.',
		message: 'Choose the site’s language from the list.',
	}),
	msg({
		id: 'Choose the time zone dates and times are shown in.',
		message: 'Choose the time zone dates and times are shown in.',
	}),
	msg({
		id: 'Choose to create a key or revoke one.',
		message: 'Choose to create a key or revoke one.',
	}),
	msg({
		id: 'Choose to delete a subscriber or to import a list.',
		message: 'Choose to delete a subscriber or to import a list.',
	}),
	msg({
		id: 'Choose to mark the message read or unread, archive it, or delete it.',
		message: 'Choose to mark the message read or unread, archive it, or delete it.',
	}),
	msg({
		id: 'Choose to save a draft, publish or schedule.',
		message: 'Choose to save a draft, publish or schedule.',
	}),
	msg({ id: 'Choose when to publish.', message: 'Choose when to publish.' }),
	msg({ id: 'Choose yes or no.', message: 'Choose yes or no.' }),
	msg({
		id: 'Clear, checkable reporting on climate, nature and the people working to protect them.',
		message:
			'Clear, checkable reporting on climate, nature and the people working to protect them.',
	}),
	msg({
		id: 'Deleted: every trace of the address is gone; its mails stay counted anonymously.',
		message: 'Deleted: every trace of the address is gone; its mails stay counted anonymously.',
	}),
	msg({
		id: 'Describe the cover image for people who cannot see it.',
		message: 'Describe the cover image for people who cannot see it.',
	}),
	msg({
		id: 'Describe the cover image: what it shows, for people who cannot see it.',
		message: 'Describe the cover image: what it shows, for people who cannot see it.',
	}),
	msg({
		id: 'Enter a date and time (UTC), such as 2026-05-01T09:00.',
		message: 'Enter a date and time (UTC), such as 2026-05-01T09:00.',
	}),
	msg({ id: 'Enter a name.', message: 'Enter a name.' }),
	msg({ id: 'Enter a number, such as 3.', message: 'Enter a number, such as 3.' }),
	msg({
		id: 'Enter a percentage, such as 10 or 12.5.',
		message: 'Enter a percentage, such as 10 or 12.5.',
	}),
	msg({ id: 'Enter a percentage, such as 10.', message: 'Enter a percentage, such as 10.' }),
	msg({
		id: 'Enter a tagline: one sentence that says what the site is about.',
		message: 'Enter a tagline: one sentence that says what the site is about.',
	}),
	msg({
		id: 'Enter a time zone from the list, e.g. Europe/Berlin or America/New_York.',
		message: 'Enter a time zone from the list, e.g. Europe/Berlin or America/New_York.',
	}),
	msg({
		id: 'Enter a time zone, e.g. Europe/Berlin or America/New_York.',
		message: 'Enter a time zone, e.g. Europe/Berlin or America/New_York.',
	}),
	msg({
		id: 'Enter an address on this site starting with / (like one an upload gives) or one starting with https://.',
		message:
			'Enter an address on this site starting with / (like one an upload gives) or one starting with https://.',
	}),
	msg({
		id: 'Enter the postal address shown on the contact page.',
		message: 'Enter the postal address shown on the contact page.',
	}),
	msg({ id: "Enter the site's title.", message: "Enter the site's title." }),
	msg({
		id: 'Give a date and time to publish at, e.g. 2026-12-01T09:00.',
		message: 'Give a date and time to publish at, e.g. 2026-12-01T09:00.',
	}),
	msg({
		id: 'Give a whole address, e.g. https://example.org.',
		message: 'Give a whole address, e.g. https://example.org.',
	}),
	msg({
		id: 'Give an address of this site starting with /, e.g. /about, or a whole https:// address.',
		message:
			'Give an address of this site starting with /, e.g. /about, or a whole https:// address.',
	}),
	msg({
		id: 'Give an address of this site starting with /, or a whole https:// address.',
		message: 'Give an address of this site starting with /, or a whole https:// address.',
	}),
	msg({
		id: 'Give an address on this site, such as /donate, or one starting with https://.',
		message: 'Give an address on this site, such as /donate, or one starting with https://.',
	}),
	msg({
		id: 'Give an image of this site (/media/…) or a whole https:// address.',
		message: 'Give an image of this site (/media/…) or a whole https:// address.',
	}),
	msg({ id: 'Give it an address.', message: 'Give it an address.' }),
	msg({ id: 'Give the article a title.', message: 'Give the article a title.' }),
	msg({
		id: 'Give the article an address (slug).',
		message: 'Give the article an address (slug).',
	}),
	msg({ id: 'Give the author a name.', message: 'Give the author a name.' }),
	msg({
		id: 'Give the link a label, e.g. About us.',
		message: 'Give the link a label, e.g. About us.',
	}),
	msg({ id: 'Give the tag a name.', message: 'Give the tag a name.' }),
	msg({
		id: 'How many articles each page of /articles lists (1 to 50).',
		message: 'How many articles each page of /articles lists (1 to 50).',
	}),
	msg({
		id: 'How many of the latest articles the home screen lists (0 to 12).',
		message: 'How many of the latest articles the home screen lists (0 to 12).',
	}),
	msg({
		id: 'Keep each author name under 100 characters.',
		message: 'Keep each author name under 100 characters.',
	}),
	msg({ id: 'Keep each tag under 40 characters.', message: 'Keep each tag under 40 characters.' }),
	msg({
		id: 'Enter the email address readers can write to.',
		message: 'Enter the email address readers can write to.',
	}),
	msg({
		id: 'Keep the email address to 254 characters or fewer.',
		message: 'Keep the email address to 254 characters or fewer.',
	}),
	msg({
		id: 'Enter an email address like hello@your-group.org.',
		message: 'Enter an email address like hello@your-group.org.',
	}),
	msg({
		id: 'Keep the introduction to 500 characters or fewer.',
		message: 'Keep the introduction to 500 characters or fewer.',
	}),
	msg({
		id: 'Keep the address to 500 characters or fewer.',
		message: 'Keep the address to 500 characters or fewer.',
	}),
	msg({
		id: 'Keep the address under 2,000 characters.',
		message: 'Keep the address under 2,000 characters.',
	}),
	msg({
		id: 'Keep the address under 500 characters.',
		message: 'Keep the address under 500 characters.',
	}),
	msg({
		id: 'Keep the address under 80 characters.',
		message: 'Keep the address under 80 characters.',
	}),
	msg({
		id: 'Keep the author name under 100 characters.',
		message: 'Keep the author name under 100 characters.',
	}),
	msg({
		id: 'Keep the bio under 1,000 characters.',
		message: 'Keep the bio under 1,000 characters.',
	}),
	msg({
		id: 'Keep the description for search engines under 300 characters.',
		message: 'Keep the description for search engines under 300 characters.',
	}),
	msg({
		id: 'Keep the description under 300 characters.',
		message: 'Keep the description under 300 characters.',
	}),
	msg({
		id: 'Keep the description under 500 characters.',
		message: 'Keep the description under 500 characters.',
	}),
	msg({
		id: 'Keep the label under 40 characters.',
		message: 'Keep the label under 40 characters.',
	}),
	msg({
		id: 'Keep the name under 100 characters.',
		message: 'Keep the name under 100 characters.',
	}),
	msg({ id: 'Keep the name under 40 characters.', message: 'Keep the name under 40 characters.' }),
	msg({ id: 'Keep the name under 80 characters.', message: 'Keep the name under 80 characters.' }),
	msg({ id: 'Keep the slug under 80 characters.', message: 'Keep the slug under 80 characters.' }),
	msg({
		id: 'Keep the summary under 300 characters.',
		message: 'Keep the summary under 300 characters.',
	}),
	msg({
		id: 'Keep the tagline to 200 characters or fewer.',
		message: 'Keep the tagline to 200 characters or fewer.',
	}),
	msg({
		id: 'Keep the title for search engines under 120 characters.',
		message: 'Keep the title for search engines under 120 characters.',
	}),
	msg({
		id: 'Keep the title to 80 characters or fewer: it has to fit in the header.',
		message: 'Keep the title to 80 characters or fewer: it has to fit in the header.',
	}),
	msg({
		id: 'Keep the title under 200 characters.',
		message: 'Keep the title under 200 characters.',
	}),
	msg({ id: 'Link added.', message: 'Link added.' }),
	msg({ id: 'Link moved down.', message: 'Link moved down.' }),
	msg({ id: 'Link moved up.', message: 'Link moved up.' }),
	msg({ id: 'Link removed.', message: 'Link removed.' }),
	msg({ id: 'Link saved.', message: 'Link saved.' }),
	msg({ id: 'Marked as read.', message: 'Marked as read.' }),
	msg({ id: 'Marked as unread.', message: 'Marked as unread.' }),
	msg({ id: 'Mondays at 08:00 (Europe/Berlin)', message: 'Mondays at 08:00 (Europe/Berlin)' }),
	msg({ id: 'Moved back to the inbox.', message: 'Moved back to the inbox.' }),
	msg({ id: 'Must be 100 % or less.', message: 'Must be 100 % or less.' }),
	msg({
		id: 'Must be a date and time, such as 2026-05-01T09:00:00Z.',
		message: 'Must be a date and time, such as 2026-05-01T09:00:00Z.',
	}),
	msg({ id: 'Must be a whole number.', message: 'Must be a whole number.' }),
	msg({ id: 'Must be after the start ("from").', message: 'Must be after the start ("from").' }),
	msg({ id: 'Must be more than 0 %.', message: 'Must be more than 0 %.' }),
	msg({
		id: 'Name at least one language, or leave languages out.',
		message: 'Name at least one language, or leave languages out.',
	}),
	msg({ id: 'Name at most 10 authors.', message: 'Name at most 10 authors.' }),
	msg({ id: 'Name each device once.', message: 'Name each device once.' }),
	msg({ id: 'Name each language once.', message: 'Name each language once.' }),
	msg({
		id: 'Name the key after the script or service that will use it.',
		message: 'Name the key after the script or service that will use it.',
	}),
	msg({
		id: 'No configuration published yet: the site uses the in-app defaults.',
		message: 'No configuration published yet: the site uses the in-app defaults.',
	}),
	msg({
		id: 'Nothing was imported: correct these lines and import the file again.',
		message: 'Nothing was imported: correct these lines and import the file again.',
	}),
	msg({
		id: 'Only admins can open this part of the editor area.',
		message: 'Only admins can open this part of the editor area.',
	}),
	msg({ id: 'Only https:// addresses elsewhere.', message: 'Only https:// addresses elsewhere.' }),
	msg({
		id: 'Rules may hold percent, languages, devices, from and until only.',
		message: 'Rules may hold percent, languages, devices, from and until only.',
	}),
	msg({
		id: 'SVG images cannot be uploaded: an SVG can carry scripts that would run on this site. Save the image as PNG or WebP and upload that instead.',
		message:
			'SVG images cannot be uploaded: an SVG can carry scripts that would run on this site. Save the image as PNG or WebP and upload that instead.',
	}),
	msg({
		id: 'Say which readers see it: a share of them, their languages or their devices. Or choose everyone.',
		message:
			'Say which readers see it: a share of them, their languages or their devices. Or choose everyone.',
	}),
	msg({ id: 'Say which table to export.', message: 'Say which table to export.' }),
	msg({
		id: 'Start with / and leave out spaces, e.g. /old-blog/2019/heron-count.',
		message: 'Start with / and leave out spaces, e.g. /old-blog/2019/heron-count.',
	}),
	msg({
		id: 'That account no longer exists. Reload the page to see the team as it is now.',
		message: 'That account no longer exists. Reload the page to see the team as it is now.',
	}),
	msg({
		id: 'That action is not known. Reload the page and try again.',
		message: 'That action is not known. Reload the page and try again.',
	}),
	msg({
		id: 'That address is too long. Upload the image here instead.',
		message: 'That address is too long. Upload the image here instead.',
	}),
	msg({ id: 'That link was removed meanwhile.', message: 'That link was removed meanwhile.' }),
	msg({ id: 'The article has no text.', message: 'The article has no text.' }),
	msg({
		id: 'The article is longer than 200,000 characters.',
		message: 'The article is longer than 200,000 characters.',
	}),
	msg({
		id: 'The cover image must be a path on this site or an https:// address.',
		message: 'The cover image must be a path on this site or an https:// address.',
	}),
	msg({ id: 'The file has no addresses in it.', message: 'The file has no addresses in it.' }),
	msg({ id: 'The file has no redirects in it.', message: 'The file has no redirects in it.' }),
	msg({
		id: 'The file is empty. Choose an image file to upload.',
		message: 'The file is empty. Choose an image file to upload.',
	}),
	msg({
		id: 'The file is larger than 5 MB; split it and import each part.',
		message: 'The file is larger than 5 MB; split it and import each part.',
	}),
	msg({
		id: 'The file must start with front matter between two "---" lines.',
		message: 'The file must start with front matter between two "---" lines.',
	}),
	msg({
		id: 'The first day must be on or before the last day.',
		message: 'The first day must be on or before the last day.',
	}),
	msg({
		id: 'The first line is a redirect, not the names of the columns: add a first line from,to,status above it.',
		message:
			'The first line is a redirect, not the names of the columns: add a first line from,to,status above it.',
	}),
	msg({
		id: 'The first line must name the columns: from,to,status (status may be left out).',
		message: 'The first line must name the columns: from,to,status (status may be left out).',
	}),
	msg({
		id: 'The form arrived incomplete or damaged. Please send it again.',
		message: 'The form arrived incomplete or damaged. Please send it again.',
	}),
	msg({
		id: 'The form is missing the version it was opened at; reload the page.',
		message: 'The form is missing the version it was opened at; reload the page.',
	}),
	msg({
		id: 'The front matter must be a set of "key: value" lines.',
		message: 'The front matter must be a set of "key: value" lines.',
	}),
	msg({
		id: 'The home address cannot be redirected.',
		message: 'The home address cannot be redirected.',
	}),
	msg({
		id: 'The image for shared links must be a path on this site or an https:// address.',
		message: 'The image for shared links must be a path on this site or an https:// address.',
	}),
	msg({ id: 'The menus are back to the default.', message: 'The menus are back to the default.' }),
	msg({ id: 'The message was deleted.', message: 'The message was deleted.' }),
	msg({ id: 'The role must be admin or editor.', message: 'The role must be admin or editor.' }),
	msg({
		id: 'The server is rendering many texts just now. Wait a few seconds and try again.',
		message: 'The server is rendering many texts just now. Wait a few seconds and try again.',
	}),
	msg({
		id: 'The site’s push key could not be read.',
		message: 'The site’s push key could not be read.',
	}),
	msg({ id: 'The stream position is not valid.', message: 'The stream position is not valid.' }),
	msg({
		id: 'The subscription could not be removed.',
		message: 'The subscription could not be removed.',
	}),
	msg({
		id: 'The subscription could not be saved.',
		message: 'The subscription could not be saved.',
	}),
	msg({
		id: 'The title needs at least one letter or digit for its address.',
		message: 'The title needs at least one letter or digit for its address.',
	}),
	msg({
		id: 'The title needs at least one letter or digit.',
		message: 'The title needs at least one letter or digit.',
	}),
	msg({
		id: 'There is already an account with this email address.',
		message: 'There is already an account with this email address.',
	}),
	msg({
		id: 'There is no article or page at that address. Give the address (slug) of the one this translates.',
		message:
			'There is no article or page at that address. Give the address (slug) of the one this translates.',
	}),
	msg({
		id: 'There is no such subscriber. Reload the page and try again.',
		message: 'There is no such subscriber. Reload the page and try again.',
	}),
	msg({
		id: 'This address takes a form (application/x-www-form-urlencoded or multipart/form-data), as the page sends it.',
		message:
			'This address takes a form (application/x-www-form-urlencoded or multipart/form-data), as the page sends it.',
	}),
	msg({
		id: 'This cannot be marked a translation of that one. Link a translation to the original (not to another translation, nor to itself, nor to one that has translations of its own), an article to an article and a page to a page.',
		message:
			'This cannot be marked a translation of that one. Link a translation to the original (not to another translation, nor to itself, nor to one that has translations of its own), an article to an article and a page to a page.',
	}),
	msg({
		id: 'This article no longer exists: someone deleted it.',
		message: 'This article no longer exists: someone deleted it.',
	}),
	msg({
		id: 'This file is not a PNG, JPEG, WebP or AVIF image, the only types that can be uploaded. Its contents are checked, not its name.',
		message:
			'This file is not a PNG, JPEG, WebP or AVIF image, the only types that can be uploaded. Its contents are checked, not its name.',
	}),
	msg({
		id: 'This file is not text. Save the list as CSV (comma-separated values) and choose that file.',
		message:
			'This file is not text. Save the list as CSV (comma-separated values) and choose that file.',
	}),
	msg({
		id: 'This image could not be read: it may be damaged or cut short. Export it again and upload the new file.',
		message:
			'This image could not be read: it may be damaged or cut short. Export it again and upload the new file.',
	}),
	msg({ id: 'This image was deleted already.', message: 'This image was deleted already.' }),
	msg({
		id: 'This is not valid JSON: check the quotes, commas and brackets.',
		message: 'This is not valid JSON: check the quotes, commas and brackets.',
	}),
	msg({
		id: 'This is one of the most common passwords, so it is easy to guess. Choose another.',
		message: 'This is one of the most common passwords, so it is easy to guess. Choose another.',
	}),
	msg({
		id: 'This key came before with a different request. Use a new key for a new article.',
		message: 'This key came before with a different request. Use a new key for a new article.',
	}),
	msg({
		id: 'This message no longer exists: someone may have deleted it.',
		message: 'This message no longer exists: someone may have deleted it.',
	}),
	msg({
		id: 'This revision is no longer kept. Choose another one.',
		message: 'This revision is no longer kept. Choose another one.',
	}),
	msg({
		id: 'This subscriber was deleted already.',
		message: 'This subscriber was deleted already.',
	}),
	msg({
		id: 'Tick this box: only import people who agreed to receive this newsletter.',
		message: 'Tick this box: only import people who agreed to receive this newsletter.',
	}),
	msg({
		id: 'Too many requests. Please try again later.',
		message: 'Too many requests. Please try again later.',
	}),
	msg({ id: 'Use at most 10 tags.', message: 'Use at most 10 tags.' }),
	msg({
		id: 'Use lowercase letters, digits and single hyphens in the slug.',
		message: 'Use lowercase letters, digits and single hyphens in the slug.',
	}),
	msg({
		id: 'Use lowercase letters, digits and single hyphens, e.g. climate-crisis.',
		message: 'Use lowercase letters, digits and single hyphens, e.g. climate-crisis.',
	}),
	msg({
		id: 'Use lowercase letters, digits, letters of scripts without capitals and single hyphens in the slug.',
		message:
			'Use lowercase letters, digits, letters of scripts without capitals and single hyphens in the slug.',
	}),
	msg({
		id: 'Use language codes of 2 or 3 lower-case letters, such as fr or pt.',
		message: 'Use language codes of 2 or 3 lower-case letters, such as fr or pt.',
	}),
	msg({
		id: 'Use the whole-number change id from the page or the last event.',
		message: 'Use the whole-number change id from the page or the last event.',
	}),
	msg({
		id: 'Use true or false for email: whether publishing mails newsletter subscribers.',
		message: 'Use true or false for email: whether publishing mails newsletter subscribers.',
	}),
	msg({
		id: 'Use true or false for notify: whether publishing tells push subscribers.',
		message: 'Use true or false for notify: whether publishing tells push subscribers.',
	}),
	msg({
		id: 'We read every message. Write to us with a correction, a story we should follow, or to work with us.',
		message:
			'We read every message. Write to us with a correction, a story we should follow, or to work with us.',
	}),
	msg({
		id: 'Where the announcement leads when a reader follows it: an address on this site (/donate) or elsewhere (https://…). Empty: the announcement is plain text.',
		message:
			'Where the announcement leads when a reader follows it: an address on this site (/donate) or elsewhere (https://…). Empty: the announcement is plain text.',
	}),
	msg({
		id: 'Whether /contact shows the contact form. Off: it shows the postal and email address instead, and new messages are refused.',
		message:
			'Whether /contact shows the contact form. Off: it shows the postal and email address instead, and new messages are refused.',
	}),
	msg({
		id: 'Whether readers see the announcement (with conditions: which readers). Off keeps its text for later.',
		message:
			'Whether readers see the announcement (with conditions: which readers). Off keeps its text for later.',
	}),
	msg({
		id: 'Whether “Notify me of new articles” is offered on the articles list and article pages. Off: readers already subscribed keep their notices.',
		message:
			'Whether “Notify me of new articles” is offered on the articles list and article pages. Off: readers already subscribed keep their notices.',
	}),
	msg({
		id: 'You cannot deactivate your own account. Another admin can, if it is needed.',
		message: 'You cannot deactivate your own account. Another admin can, if it is needed.',
	}),
	msg({
		id: 'Enter the address that will receive the events.',
		message: 'Enter the address that will receive the events.',
	}),
	msg({
		id: 'Keep the address under 2,000 characters.',
		message: 'Keep the address under 2,000 characters.',
	}),
	msg({
		id: 'Keep the description under 200 characters.',
		message: 'Keep the description under 200 characters.',
	}),
	msg({ id: 'Choose events from the list.', message: 'Choose events from the list.' }),
	msg({ id: 'Choose at least one event.', message: 'Choose at least one event.' }),
	msg({ id: 'Choose a delivery to send again.', message: 'Choose a delivery to send again.' }),
	msg({
		id: 'Enter the full address, like https://hooks.example.org/canopy.',
		message: 'Enter the full address, like https://hooks.example.org/canopy.',
	}),
	msg({
		id: 'The address must start with https://.',
		message: 'The address must start with https://.',
	}),
	msg({
		id: 'The address must be https: the events carry readers\u2019 messages and addresses. (http: is allowed for private addresses, when the webhook settings allow them.)',
		message:
			'The address must be https: the events carry readers\u2019 messages and addresses. (http: is allowed for private addresses, when the webhook settings allow them.)',
	}),
	msg({
		id: 'The address must not carry a user name or password.',
		message: 'The address must not carry a user name or password.',
	}),
	msg({
		id: 'The address must not have a #fragment.',
		message: 'The address must not have a #fragment.',
	}),
	msg({ id: 'Choose an export file to import.', message: 'Choose an export file to import.' }),
	msg({
		id: 'The upload arrived incomplete. Please send it again.',
		message: 'The upload arrived incomplete. Please send it again.',
	}),
	msg({
		id: 'Choose the export file: Ghost’s .json or WordPress’s .xml.',
		message: 'Choose the export file: Ghost’s .json or WordPress’s .xml.',
	}),
	msg({
		id: 'This is not a Ghost export (.json) or a WordPress export (.xml). Export the site again and choose that file.',
		message:
			'This is not a Ghost export (.json) or a WordPress export (.xml). Export the site again and choose that file.',
	}),
	msg({
		id: 'The images must be a .zip archive of the folder.',
		message: 'The images must be a .zip archive of the folder.',
	}),
]
