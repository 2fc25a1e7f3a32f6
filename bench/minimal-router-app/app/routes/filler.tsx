export default function Filler() {
	return <p>A page.</p>
}
