// Follows the text the author selects on the page (not in the assistant itself) and where it is.
import { onBeforeUnmount, onMounted, shallowRef } from 'vue'
import { selectionText } from './selection-text'

export interface PageSelection {
  text: string
  rect: DOMRect
}

/** `ignore` lists the assistant's own elements; `onSelect` hears each new non-empty selection once. */
export function usePageSelection(ignore: () => Array<Element | null | undefined>, onSelect: (text: string) => void) {
  const current = shallowRef<PageSelection | null>(null)
  let lastText = ''
  let dismissed = ''
  let frame = 0

  function read(): void {
    frame = 0
    const selection = document.getSelection()
    const anchor = selection?.anchorNode ?? null
    if (anchor && ignore().some((element) => element?.contains(anchor))) return
    const text = selection && !selection.isCollapsed && selection.rangeCount > 0 ? selectionText(selection).trim() : ''
    if (text === '') {
      current.value = null
      lastText = ''
      dismissed = ''
      return
    }
    current.value = text === dismissed ? null : { text, rect: selection!.getRangeAt(0).getBoundingClientRect() }
    if (text !== lastText) onSelect(text)
    lastText = text
  }

  // Selection and scroll events come in bursts; reading once per frame is enough.
  const schedule = () => {
    frame ||= requestAnimationFrame(read)
  }

  onMounted(() => {
    document.addEventListener('selectionchange', schedule)
    window.addEventListener('scroll', schedule, { passive: true, capture: true })
    window.addEventListener('resize', schedule, { passive: true })
  })
  onBeforeUnmount(() => {
    document.removeEventListener('selectionchange', schedule)
    window.removeEventListener('scroll', schedule, { capture: true })
    window.removeEventListener('resize', schedule)
    if (frame) cancelAnimationFrame(frame)
  })

  /** Forgets the current selection until the author selects something else. */
  function dismiss(): void {
    dismissed = current.value?.text ?? ''
    current.value = null
  }

  return { current, dismiss }
}
