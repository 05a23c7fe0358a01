// The "@" / "[[" page picker behind the message box: what is being typed, search-backed pages, keyboard.
import { ref, useId, watch, type Ref } from 'vue'
import { mentionQuery, withoutMention, type MentionQuery } from '../runtime/conversation/mentions'

type PageChoice = { path: string; title: string }

interface MentionHost {
  draft: string
  mention(page: PageChoice): void
  findPages(query: string, signal?: AbortSignal): Promise<PageChoice[]>
}

/** A short pause before searching, so each keystroke does not send a request. */
const SEARCH_DELAY_MS = 120

export function useMentionPicker(store: MentionHost, input: Ref<HTMLTextAreaElement | undefined>) {
  const id = `${useId()}-pages`
  const query = ref<MentionQuery | null>(null)
  const pages = ref<PageChoice[]>([])
  const active = ref(0)
  const open = ref(false)
  const dismissed = ref<number | null>(null)
  let searching: AbortController | null = null
  let timer: ReturnType<typeof setTimeout> | undefined

  /** Reads the mention before the caret, after any edit or caret move. */
  function track(): void {
    const element = input.value
    const found = mentionQuery(store.draft, element?.selectionStart ?? store.draft.length)
    // Escape closes the picker for this mention only; a new "@" opens it again.
    query.value = found && found.start !== dismissed.value ? found : null
    if (!found) dismissed.value = null
  }

  watch(
    () => query.value && `${query.value.start}:${query.value.query}`,
    () => {
      clearTimeout(timer)
      searching?.abort()
      const current = query.value
      if (!current) {
        open.value = false
        return
      }
      timer = setTimeout(() => {
        const controller = (searching = new AbortController())
        store
          .findPages(current.query, controller.signal)
          .then((found) => {
            if (controller.signal.aborted) return
            pages.value = found
            active.value = 0
            open.value = query.value !== null
          })
          .catch(() => undefined)
      }, SEARCH_DELAY_MS)
    },
  )
  watch(() => store.draft, track, { flush: 'post' })

  function pick(page: PageChoice): void {
    const current = query.value
    if (!current) return
    const caret = input.value?.selectionStart ?? store.draft.length
    store.draft = withoutMention(store.draft, current, caret)
    store.mention(page)
    query.value = null
    open.value = false
    const element = input.value
    if (element) {
      element.focus()
      void Promise.resolve().then(() => element.setSelectionRange(current.start, current.start))
    }
  }

  /** Handles the picker's keys; true when the key was the picker's. */
  function onKeydown(event: KeyboardEvent): boolean {
    if (!open.value || !query.value) return false
    const count = pages.value.length
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && count > 0) {
      event.preventDefault()
      active.value = (active.value + (event.key === 'ArrowDown' ? 1 : count - 1)) % count
      return true
    }
    if (((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') && count > 0) {
      event.preventDefault()
      pick(pages.value[active.value]!)
      return true
    }
    if (event.key === 'Escape') {
      // Closes the picker only, not the panel.
      event.preventDefault()
      event.stopPropagation()
      dismissed.value = query.value.start
      query.value = null
      open.value = false
      return true
    }
    return false
  }

  return { id, query, pages, active, open, track, pick, onKeydown }
}
