// The orb's shortcut: Alt+K (⌥K). VitePress search owns Ctrl/Cmd+K and "/"; browsers leave Alt+K alone.
export const SHORTCUT_ARIA = 'Alt+K'

export function isMacLike(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent)
}

export function shortcutLabel(): string {
  return isMacLike() ? '⌥K' : 'Alt+K'
}

/** Matched by physical key, because ⌥K types "˚" on a Mac keyboard. */
export function isOpenShortcut(event: KeyboardEvent): boolean {
  return event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && (event.code === 'KeyK' || event.key.toLowerCase() === 'k')
}
