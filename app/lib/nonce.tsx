import { createContext, type ReactNode, useContext } from 'react'

// On the server this carries the request's CSP nonce; in the browser it is empty, which is
// what React expects when it hydrates (browsers hide nonce values from the DOM).
const NonceContext = createContext('')

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
	return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>
}

export function useNonce(): string {
	return useContext(NonceContext)
}
