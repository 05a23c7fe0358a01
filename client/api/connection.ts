import type {
  API_PREFIX as ProtocolApiPrefix,
  TOKEN_HEADER as ProtocolTokenHeader,
  TOKEN_META_NAME as ProtocolTokenMetaName,
} from '../../plugin/protocol'

// The protocol is imported for types only; `typeof` keeps these copies equal to it.
export const API_PREFIX: typeof ProtocolApiPrefix = '/__metablog/api'
export const TOKEN_HEADER: typeof ProtocolTokenHeader = 'x-metablog-token'
const TOKEN_META_NAME: typeof ProtocolTokenMetaName = 'metablog-token'

/** Where the dev-server API is and the page's token. */
export interface ApiConnection {
  origin: string
  token: string
}

/** The API is there only on the dev server, whose page carries the token; null elsewhere. */
export function connectionFromPage(page: Document = document): ApiConnection | null {
  const token = page.querySelector<HTMLMetaElement>(`meta[name="${TOKEN_META_NAME}"]`)?.content
  return token ? { origin: page.location.origin, token } : null
}
