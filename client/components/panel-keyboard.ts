// The panel and the keyboard: a skip link near the top of the page, Escape from anywhere, focus that wraps.

/** The width below which the panel is a bottom sheet over the whole page (as in AIChatOrb.vue's CSS). */
export const SMALL_SCREEN_QUERY = '(max-width: 639px)'

export function isSmallScreen(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(SMALL_SCREEN_QUERY).matches
}

/** A holder right after VitePress's "Skip to content" link (or first in the body), for the assistant's skip link. */
export function createSkipHolder(): HTMLElement {
  const holder = document.createElement('div')
  holder.dataset.metablogSkip = ''
  const vitepressSkip = document.querySelector('.VPSkipLink')
  if (vitepressSkip) vitepressSkip.after(holder)
  else document.body.prepend(holder)
  return holder
}

/** Dialogs that close on Escape themselves: a modal, and VitePress's search box (which is not marked as one). */
const OTHER_DIALOGS = '[aria-modal="true"], .VPLocalSearchBox'

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]'

/**
 * Whether an Escape pressed with `focused` is someone else's: another open modal dialog (VitePress's
 * search box), or a field outside the panel that still holds text to cancel.
 */
export function escapeBelongsElsewhere(panelRoot: HTMLElement | undefined, focused: Element | null): boolean {
  const modal = document.querySelector(OTHER_DIALOGS)
  if (modal && !panelRoot?.contains(modal)) return true
  if (!focused || panelRoot?.contains(focused)) return false
  if (focused.closest('[role="dialog"]')) return true
  if (!focused.matches(EDITABLE)) return false
  return 'value' in focused ? String((focused as HTMLInputElement).value) !== '' : (focused.textContent ?? '') !== ''
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** The elements Tab visits inside `container`, in order. */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  // A roving tabindex (the mode switch's radios) leaves all but one at -1: Tab skips those.
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.tabIndex >= 0 && element.getClientRects().length > 0)
}

/**
 * Tab from the panel's last control goes to its first (the header's New conversation, Close…), and
 * Shift+Tab from the first to the last: both ends are reachable forwards and backwards.
 * Returns whether it moved the focus.
 */
export function wrapFocus(container: HTMLElement, event: KeyboardEvent): boolean {
  if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return false
  const focusable = focusableIn(container)
  const first = focusable[0]
  const last = focusable.at(-1)
  if (!first || !last) return false
  const target = event.shiftKey ? (document.activeElement === first ? last : null) : document.activeElement === last ? first : null
  if (!target) return false
  event.preventDefault()
  target.focus()
  return true
}
