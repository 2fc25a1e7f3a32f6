// A Menu button works from the first paint, not from when the page's scripts have loaded (seconds
// on a slow phone): this script, inline in <head>, opens and closes it until useMenuButton takes
// over. It does what that does, in small: the button toggles its menu, a click outside it or
// Escape closes it (Escape from inside giving focus back to the button).
import { useNonce } from '#app/lib/nonce.tsx'

/** Set on <html> once React is in charge of the menu buttons: the early script then does nothing. */
export const menuButtonsHydrated = 'data-menus-hydrated'

const script =
	`(function(){var d=document,r=d.documentElement,q='[data-menu-button][aria-expanded=true]';
function m(b){return d.getElementById(b.getAttribute('aria-controls'))}
function s(b,o){var n=m(b);if(!n)return;b.setAttribute('aria-expanded',String(o));n.classList.toggle('open',o)}
d.addEventListener('click',function(e){if(r.hasAttribute('${menuButtonsHydrated}'))return;var t=e.target,b=t.closest&&t.closest('[data-menu-button]');
if(b){s(b,b.getAttribute('aria-expanded')!=='true');return}
d.querySelectorAll(q).forEach(function(o){var n=m(o);if(n&&!n.contains(t))s(o,false)})});
d.addEventListener('keydown',function(e){if(e.key!=='Escape'||r.hasAttribute('${menuButtonsHydrated}'))return;
d.querySelectorAll(q).forEach(function(o){var n=m(o);if(n&&n.contains(d.activeElement))o.focus();s(o,false)})})})()`.replace(
		/\n/g,
		'',
	)

export function MenuButtonScript() {
	const nonce = useNonce()
	// biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script
	return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />
}
