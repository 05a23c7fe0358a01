// The tools the agent ships with; a new tool is one file plus its line here.
import type { Tool } from '../runtime/define-tool'
import { createPage } from './create-page'
import { deletePage } from './delete-page'
import { editPage } from './edit-page'
import { getLinks } from './get-links'
import { listPages } from './list-pages'
import { readPage } from './read-page'
import { searchPages } from './search-pages'

export const builtinTools: readonly Tool[] = [searchPages, listPages, readPage, getLinks, editPage, createPage, deletePage]

export { createPage, deletePage, editPage, getLinks, listPages, readPage, searchPages }
