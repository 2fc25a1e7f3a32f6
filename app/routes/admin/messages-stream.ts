// Placeholder until this endpoint is built.
export function loader() {
	return Response.json({ error: 'There is no such API endpoint.' }, { status: 404 })
}

export function action() {
	return Response.json({ error: 'There is no such API endpoint.' }, { status: 404 })
}
