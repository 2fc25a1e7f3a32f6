import { redirect } from 'react-router'
import { callAuth, passCookies } from '#app/features/auth/session.server.ts'
import type { Route } from './+types/sign-out'

export async function action({ request, context }: Route.ActionArgs) {
	const response = await callAuth(context, request, '/sign-out', {})
	throw redirect('/admin/sign-in?signed-out=1', { headers: passCookies(response) })
}

export function loader() {
	return redirect('/admin')
}
