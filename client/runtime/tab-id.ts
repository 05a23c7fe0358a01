// sessionStorage belongs to one tab and outlives its reloads: an id kept there tells this tab's own
// interrupted tasks (resumable at once after a reload) from tasks another tab may still be running.
const KEY = 'metablog:tab-id'

let fallback: string | undefined

function newId(): string {
  return `tab-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

/** This tab's id; one per page load where sessionStorage is unavailable. */
export function currentTabId(): string {
  try {
    const storage = globalThis.sessionStorage
    const known = storage?.getItem(KEY)
    if (known) return known
    const id = newId()
    storage?.setItem(KEY, id)
    if (storage) return id
  } catch {
    // Storage refused (privacy settings): fall through to an id for this page load.
  }
  return (fallback ??= newId())
}
