// What the wiki-link graph says about one page, or the whole blog, as Markdown.
import type { GraphResponse } from '../../plugin/protocol'
import { pageLink } from './page-link'

export interface PageLinks {
  /** Pages that link to this one, each once. */
  backlinks: string[]
  /** Pages this one links to, each once. */
  outgoing: string[]
  /** Link targets on this page that match no page. */
  unresolved: string[]
}

const LIST_LIMIT = 15

export function pageLinks(graph: GraphResponse, path: string): PageLinks {
  const distinct = (paths: string[]) => [...new Set(paths)]
  return {
    backlinks: distinct(graph.edges.filter((edge) => edge.target === path && edge.source !== path).map((edge) => edge.source)),
    outgoing: distinct(graph.edges.filter((edge) => edge.source === path && edge.target !== path).map((edge) => edge.target)),
    unresolved: distinct(graph.unresolved.filter((link) => link.source === path).map((link) => link.target)),
  }
}

function titles(graph: GraphResponse): (path: string) => string {
  const byPath = new Map(graph.nodes.map((node) => [node.path, node.title]))
  return (path) => byPath.get(path) || path
}

function list<T>(items: readonly T[], render: (item: T) => string): string {
  const shown = items.slice(0, LIST_LIMIT).map((item) => `- ${render(item)}`)
  if (items.length > LIST_LIMIT) shown.push(`- … and ${items.length - LIST_LIMIT} more`)
  return shown.join('\n')
}

const count = (amount: number, noun: string) => `${amount} ${noun}${amount === 1 ? '' : 's'}`
/** The verb for a count: "1 page links", "2 pages link". */
const verb = (amount: number, plural: string) => (amount === 1 ? `${plural}s` : plural)

export function describePageLinks(graph: GraphResponse, path: string): string {
  const titleOf = titles(graph)
  const links = pageLinks(graph, path)
  const link = (target: string) => pageLink(titleOf(target), target)
  const sections = [`**Links of ${link(path)}**`]
  sections.push(
    links.backlinks.length
      ? `${count(links.backlinks.length, 'page')} ${verb(links.backlinks.length, 'link')} here:\n${list(links.backlinks, link)}`
      : 'No page links here yet.',
  )
  sections.push(
    links.outgoing.length ? `It links to ${count(links.outgoing.length, 'page')}:\n${list(links.outgoing, link)}` : 'It links to no other page.',
  )
  if (links.unresolved.length) {
    sections.push(
      `${count(links.unresolved.length, 'link')} ${verb(links.unresolved.length, 'lead')} nowhere (write those pages, or fix the names):\n${list(links.unresolved, (target) => `\`[[${target}]]\``)}`,
    )
  }
  return sections.join('\n\n')
}

/** The blog as a whole, for when no page is open: size, links that lead nowhere, pages nothing links to. */
export function describeSite(graph: GraphResponse): string {
  const titleOf = titles(graph)
  const linked = new Set(graph.edges.flatMap((edge) => [edge.source, edge.target]))
  const orphans = graph.nodes.map((node) => node.path).filter((path) => !linked.has(path))
  const sections = [`**Knowledge graph:** ${count(graph.nodes.length, 'page')}, ${count(graph.edges.length, 'link')}.`]
  if (graph.unresolved.length) {
    sections.push(
      `${count(graph.unresolved.length, 'link')} ${verb(graph.unresolved.length, 'lead')} nowhere:\n${list(
        graph.unresolved,
        (link) => `\`[[${link.target}]]\` on ${pageLink(titleOf(link.source), link.source)}`,
      )}`,
    )
  }
  if (orphans.length) sections.push(`${count(orphans.length, 'page')} with no links in or out:\n${list(orphans, (path) => pageLink(titleOf(path), path))}`)
  sections.push('Open a page and ask again to see its backlinks and get link suggestions.')
  return sections.join('\n\n')
}
