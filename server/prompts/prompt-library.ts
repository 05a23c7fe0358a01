import fs from 'node:fs/promises'
import path from 'node:path'
import type { PromptDefinition, PromptProblem, PromptsResponse } from '../../plugin/protocol.js'
import { MetaBlogError, isErrnoException } from '../errors.js'
import { MAX_PROMPT_FILE_BYTES, parsePromptFile } from './prompt-file.js'

/** More prompt files than anyone keeps; past it the rest are reported, not read. */
const MAX_PROMPT_FILES = 200

/** The prompt files of one folder (`*.md`, not recursive), parsed once and kept until a file changes. */
export class PromptLibrary {
  private cached: Promise<PromptsResponse> | null = null

  constructor(readonly folder: string) {}

  /** Whether an absolute path is one this library reads: a `.md` file right in its folder. */
  isPromptFile(file: string): boolean {
    return path.dirname(path.resolve(file)) === path.resolve(this.folder) && file.endsWith('.md')
  }

  /** Forget the parsed files: the next load reads the folder again. */
  invalidate(): void {
    this.cached = null
  }

  load(): Promise<PromptsResponse> {
    this.cached ??= this.read().catch((error: unknown) => {
      this.cached = null
      throw error
    })
    return this.cached
  }

  private async read(): Promise<PromptsResponse> {
    let names: string[]
    try {
      names = (await fs.readdir(this.folder)).filter((name) => name.endsWith('.md')).sort()
    } catch (error) {
      if (isErrnoException(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return { prompts: [], problems: [] }
      throw error
    }
    const prompts: PromptDefinition[] = []
    const problems: PromptProblem[] = []
    const owners = new Map<string, string>()
    for (const [index, name] of names.entries()) {
      if (index >= MAX_PROMPT_FILES) {
        problems.push({ file: name, message: `not read: only the first ${MAX_PROMPT_FILES} prompt files (by name) are loaded.` })
        continue
      }
      try {
        const prompt = parsePromptFile(name, await this.readFile(name))
        const owner = owners.get(prompt.command)
        if (owner) {
          problems.push({ file: name, message: `the command /${prompt.command} is already defined by ${owner}; give one of them another name.` })
          continue
        }
        owners.set(prompt.command, name)
        prompts.push(prompt)
      } catch (error) {
        problems.push({ file: name, message: isErrnoException(error) && !(error instanceof MetaBlogError) ? `could not be read (${error.code}).` : (error as Error).message })
      }
    }
    return { prompts: prompts.sort((a, b) => a.command.localeCompare(b.command)), problems }
  }

  private async readFile(name: string): Promise<string> {
    const file = path.join(this.folder, name)
    // lstat: a symlink could lead anywhere on the disk, and a prompt's text is sent to the model.
    const stats = await fs.lstat(file)
    if (!stats.isFile()) throw new Error('not a regular file (symlinks and folders are not read).')
    if (stats.size > MAX_PROMPT_FILE_BYTES) throw new Error(`the file is larger than ${MAX_PROMPT_FILE_BYTES / 1024} KiB.`)
    return fs.readFile(file, 'utf8')
  }
}
