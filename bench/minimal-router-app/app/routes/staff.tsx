import { Outlet } from 'react-router'

export default function Staff() {
	return <Outlet />
}
