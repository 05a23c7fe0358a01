// The agent's system prompt: who it is, where the author is, and the blog's shape.
import type { PagesResponse } from '../../plugin/protocol'
import type { ApprovalMode } from './approvals'

/** What the model is told about the blog: its folders with page counts, and how many pages there are. */
export interface BlogShape {
  pageCount: number
  folders: { folder: string; pages: number }[]
  /** The title of the page the author is on, when it is a page of the blog. */
  currentTitle?: string
}

const MAX_FOLDERS = 30

export function blogShape(pages: PagesResponse['pages'], currentFile?: string): BlogShape {
  const counts = new Map<string, number>()
  for (const page of pages) {
    const folder = page.path.includes('/') ? page.path.slice(0, page.path.lastIndexOf('/')) : '(root)'
    counts.set(folder, (counts.get(folder) ?? 0) + 1)
  }
  const folders = [...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_FOLDERS).map(([folder, count]) => ({ folder, pages: count }))
  const current = currentFile === undefined ? undefined : pages.find((page) => page.path === currentFile)?.title
  return { pageCount: pages.length, folders, ...(current ? { currentTitle: current } : {}) }
}

const MODE_RULES: Record<ApprovalMode, string> = {
  ask: 'Changes you make with edit_page, create_page or delete_page are shown to the author, who accepts or rejects each one.',
  'auto-edit': 'Changes you make with edit_page and create_page apply at once (the author sees the diff); delete_page still asks.',
  plan:
    'PLAN MODE: you may only read. Investigate with the read tools, then answer with a short numbered plan of the changes you would make (which page, what change). Do not claim to have changed anything.',
}

/** The system message for one agent turn. */
export function agentPrompt(options: { shape: BlogShape; mode: ApprovalMode; currentFile?: string; selectedText?: string }): string {
  const { shape, mode, currentFile, selectedText } = options
  const where = currentFile
    ? `The author is on the page ${currentFile}${shape.currentTitle ? ` ("${shape.currentTitle}")` : ''}; "this page" means it.`
    : 'The author is not on a page of the blog.'
  const selection = selectedText ? `They selected this text on the page:\n"""\n${selectedText.slice(0, 2000)}\n"""` : 'Nothing is selected.'
  const folders = shape.folders.map(({ folder, pages }) => `${folder} (${pages})`).join(', ')
  return [
    "You are MetaBlog, the co-author of a technical blog, working inside the blog's dev server. You read, search and change the blog's Markdown pages only through the tools you are given.",
    `The blog has ${shape.pageCount} pages. Folders: ${folders || 'none'}.`,
    where,
    selection,
    'Before editing a page, read it with read_page and quote oldText exactly from it; keep every other part of the page as it is. If a tool answers with an error, read it and fix the call (or tell the author why you cannot). If a page changed since you read it, read it again before editing.',
    MODE_RULES[mode],
    'Answer in Markdown, briefly, in the language the author used. Link pages by their path.',
  ].join('\n\n')
}
