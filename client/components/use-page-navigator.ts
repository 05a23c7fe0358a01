// Lets skills open pages through VitePress's own router (no reload, so a running task goes on).
import { onBeforeUnmount } from 'vue'
import { useData, useRouter, withBase } from 'vitepress'
import { setPageNavigator } from '../runtime/page-navigation'

/** Registers the router as the page navigator for as long as the calling component lives. */
export function usePageNavigator(): void {
  let router: ReturnType<typeof useRouter>
  let data: ReturnType<typeof useData>
  try {
    router = useRouter()
    data = useData()
  } catch {
    // Mounted outside a VitePress app (a component test, another host): there is no router to drive.
    return
  }
  const remove = setPageNavigator({
    currentFile: () => data.page.value.relativePath || undefined,
    go: (route) => router.go(withBase(route)),
  })
  onBeforeUnmount(remove)
}
