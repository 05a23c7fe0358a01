// The id of this tab's session log, in sessionStorage, so a reload continues the same conversation.
const STORAGE_KEY = 'metablog:session-id:v1'

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    // Storage can be blocked by the browser's privacy settings.
    return null
  }
}

export function savedSessionId(): string | undefined {
  try {
    return storage()?.getItem(STORAGE_KEY) ?? undefined
  } catch {
    return undefined
  }
}

export function saveSessionId(id: string | undefined): void {
  try {
    if (id) storage()?.setItem(STORAGE_KEY, id)
    else storage()?.removeItem(STORAGE_KEY)
  } catch {
    // Over the quota or blocked: a reload then starts a new log.
  }
}
