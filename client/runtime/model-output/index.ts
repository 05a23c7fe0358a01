// Between the model and every skill and the agent: what the model wrote, made into what was asked for.
export { createThinkFilter, splitReasoning, type SplitText } from './think-filter'
export { cleanPageText, normaliseTitleLine, titleOf } from './page-text'
export { askJson, extractJson, jsonCandidates, type JsonAnswer } from './json-answer'
export { checkArticle, describeProblem, type StructureProblem } from './structure'
export { estimatePromptTokens, estimateTokens } from './token-estimate'
export { foldedReasoning, showingReasoning, withoutFoldedReasoning } from './reasoning-note'
export { parseTextActions, textActionInstructions, toTextProtocol, visibleText, type TextActions } from './text-actions'
export { createToolSupport, isNoToolsError, withTextActions, type TextActionReason, type ToolSupport } from './text-action-port'
