// Placeholder until this page is built.
import { data } from 'react-router'

export function loader() {
	return data(null, { status: 404 })
}

export default function Placeholder() {
	return <h1>Not available yet</h1>
}
