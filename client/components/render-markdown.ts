// Chat Markdown: no raw HTML, safe links, no remote images, and highlight.js core with a few languages.
import hljs from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdownLanguage from 'highlight.js/lib/languages/markdown'
import python from 'highlight.js/lib/languages/python'
import shell from 'highlight.js/lib/languages/shell'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'
import MarkdownIt from 'markdown-it'

const LANGUAGES = { bash, css, diff, javascript, json, markdown: markdownLanguage, python, shell, typescript, xml, yaml }
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language)
// Names models like to use that the grammars do not alias themselves.
hljs.registerAliases(['vue', 'svelte'], { languageName: 'xml' })
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' })

function highlight(code: string, language: string): string {
  if (!language || !hljs.getLanguage(language)) return ''
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value
  } catch {
    return ''
  }
}

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: false, highlight })

const escapeHtml = markdown.utils.escapeHtml

// Each code block gets its language and a copy button (handled by a delegated click in MarkdownContent).
const renderFence = markdown.renderer.rules.fence!
markdown.renderer.rules.fence = (tokens, index, options, env, self) => {
  const language = tokens[index]!.info.trim().split(/\s+/)[0] ?? ''
  // A model's reasoning, folded: the author may open it, the answer stays readable.
  if (language === 'reasoning') return `<details class="mb-reasoning"><summary>Reasoning</summary><pre>${escapeHtml(tokens[index]!.content)}</pre></details>`
  const label = language ? `<span class="mb-code-lang">${escapeHtml(language)}</span>` : ''
  const copy = '<button type="button" class="mb-code-copy" data-copy-code>Copy</button>'
  return `<div class="mb-code">${label}${copy}${renderFence(tokens, index, options, env, self)}</div>`
}

function isExternal(href: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//')
}

// Page links stay in the tab (VitePress routes them); anything else opens a new, unlinked tab.
markdown.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index]!
  if (isExternal(token.attrGet('href') ?? '')) {
    token.attrSet('target', '_blank')
    token.attrSet('rel', 'noopener noreferrer')
  }
  return self.renderToken(tokens, index, options)
}

// A model's reply must not load remote images: an image URL can carry page text to a third party.
markdown.renderer.rules.image = (tokens, index) => {
  const token = tokens[index]!
  const source = token.attrGet('src') ?? ''
  const label = escapeHtml(token.content || 'image')
  return `<a href="${escapeHtml(source)}" target="_blank" rel="noopener noreferrer">[${label}]</a>`
}

/** Markdown to HTML that is safe to put in the page with v-html. */
export function renderMarkdown(text: string): string {
  return markdown.render(text)
}

/** Plain text lines (such as the server's setup instructions) as Markdown paragraphs and lists. */
export function linesToMarkdown(text: string): string {
  return text.split('\n').join('\n\n')
}
