// The default theme renders each sidebar entry as two components (VPSidebarItem and its VPLink), each with
// its own reactive state: on the 1,000-page bench blog its sidebar took 1.4 ms of server rendering a page,
// where all of a plain page takes 2 ms. The generated sidebar is drawn here instead by one component a
// group, with the same elements, classes, attributes and behaviour, styled by the default theme's own
// CSS: that build's server rendering took 3.96 s instead of 4.91 s. Any other sidebar (the author's)
// still goes through the default theme's VPSidebarItem.
import { useData, type DefaultTheme } from 'vitepress'
import { EXTERNAL_URL_RE, isActive } from 'virtual:metablog/vitepress-client/shared.js'
import VPSidebarItem from 'virtual:metablog/vitepress-client/theme-default/components/VPSidebarItem.vue'
import { normalizeLink } from 'virtual:metablog/vitepress-client/theme-default/support/utils.js'
import { defineComponent, h, onMounted, ref, shallowReactive, watch, watchPostEffect, withKeys, type PropType, type VNode } from 'vue'
import { isGeneratedItem } from './page-sidebar'

type Item = DefaultTheme.SidebarItem

/** As the default theme's containsActiveLink: the item or any under it is the current page. */
function containsActive(path: string, items: Item | Item[]): boolean {
  if (Array.isArray(items)) return items.some((item) => containsActive(path, item))
  return isActive(path, items.link) || (items.items ? containsActive(path, items.items) : false)
}

/** One group of the sidebar and everything under it, as the default theme's VPSidebarItem tree draws it. */
const SidebarTree = defineComponent({
  name: 'MetaBlogSidebarTree',
  props: {
    item: { type: Object as PropType<Item>, required: true },
    depth: { type: Number, required: true },
  },
  setup(props) {
    const { page, hash } = useData()
    // Before mount no entry is active, on the server and while hydrating, as in the default theme.
    const mounted = ref(false)
    onMounted(() => (mounted.value = true))
    /** Entries opened or closed since their item came (dropped with the item): the others show as their item says. */
    const collapsedState = shallowReactive(new Map<Item, boolean>())
    watch(() => props.item, () => collapsedState.clear())

    const isActiveLink = (item: Item) => {
      // isActive reads the location's hash itself; reading the ref makes a new hash re-render. (The theme's
      // has-active ignores a new hash until something else changes; for the generated sidebar, whose links
      // carry no hash, the two agree.)
      void hash.value
      return mounted.value && isActive(page.value.relativePath, item.link)
    }
    const hasActiveLink = (item: Item) => isActiveLink(item) || (item.items ? containsActive(page.value.relativePath, item.items) : false)
    const collapsible = (item: Item) => item.collapsed != null
    const isCollapsed = (item: Item) => collapsedState.get(item) ?? !!(collapsible(item) && item.collapsed)
    const toggle = (item: Item) => collapsible(item) && collapsedState.set(item, !isCollapsed(item))

    // The default theme opens an entry once it becomes, or comes to hold, the current page (after mount, so
    // never on the server); an entry folded since stays folded while that does not change (a new hash).
    const lastActive = new WeakMap<Item, string>()
    watchPostEffect(() => {
      const open = (item: Item) => {
        const active = isActiveLink(item)
        const holds = hasActiveLink(item)
        const state = `${active}${holds}`
        if (lastActive.get(item) !== state && (active || holds)) collapsedState.set(item, false)
        lastActive.set(item, state)
        if (item.items) for (const child of item.items) open(child)
      }
      open(props.item)
    })

    function entry(item: Item, depth: number): VNode {
      const hasChildren = !!item.items?.length
      const textTag = !hasChildren || depth + 2 === 7 ? 'p' : `h${depth + 2}`
      const text = h(textTag, { class: 'text', innerHTML: item.text })
      const external = !!item.link && (EXTERNAL_URL_RE.test(item.link) || item.target === '_blank')
      const onItem = (event: Event) => {
        if ('key' in event && event.key !== 'Enter') return
        if (!item.link) toggle(item)
      }
      const onCaret = () => item.link && toggle(item)
      const row = item.text
        ? h('div', { class: 'item', role: item.link ? undefined : 'button', tabindex: item.items && 0, ...(item.items ? { onClick: onItem, onKeydown: onItem } : {}) }, [
            h('div', { class: 'indicator' }),
            item.link
              ? h(
                  'a',
                  {
                    class: ['VPLink', { link: true, 'vp-external-link-icon': external }, 'link'],
                    href: normalizeLink(item.link),
                    target: item.target ?? (external ? '_blank' : undefined),
                    rel: item.rel ?? (external ? 'noreferrer' : undefined),
                  },
                  [text],
                )
              : text,
            item.collapsed != null && hasChildren
              ? h('div', { class: 'caret', role: 'button', 'aria-label': 'toggle section', tabindex: 0, onClick: onCaret, onKeydown: withKeys(onCaret, ['enter']) }, [h('span', { class: 'vpi-chevron-right caret-icon' })])
              : null,
          ])
        : null
      const classes = ['VPSidebarItem', `level-${depth}`, { collapsible: collapsible(item), collapsed: isCollapsed(item), 'is-link': !!item.link, 'is-active': isActiveLink(item), 'has-active': hasActiveLink(item) }]
      const items = hasChildren ? h('div', { class: 'items' }, depth < 5 ? item.items!.map((child) => entry(child, depth + 1)) : []) : null
      return h(hasChildren ? 'section' : 'div', { key: item.text, class: classes }, [row, items])
    }

    return () => entry(props.item, props.depth)
  },
})
// The default theme's scoped CSS for its sidebar entries applies to these elements as to its own.
;(SidebarTree as { __scopeId?: string }).__scopeId = VPSidebarItem.__scopeId

/** Stands in for VPSidebarItem where the default theme's sidebar group renders one (see lean-sidebar-plugin). */
export default defineComponent({
  name: 'MetaBlogSidebarItem',
  props: {
    item: { type: Object as PropType<Item>, required: true },
    depth: { type: Number, required: true },
  },
  setup(props) {
    return () => h(isGeneratedItem(props.item) ? SidebarTree : VPSidebarItem, { item: props.item, depth: props.depth })
  },
})
