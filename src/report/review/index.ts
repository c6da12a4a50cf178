import type { Diagnostic } from '../diagnostic.js';
import type { Project } from '../../project.js';
import { collectReview, type ReviewOptions } from './collect.js';
import { formatReviewHtml } from './html.js';
import { formatReviewMarkdown } from './markdown.js';

export { collectReview, toolChanges } from './collect.js';
export { formatReviewHtml, escapeHtml } from './html.js';
export { formatReviewMarkdown, GITHUB_COMMENT_LIMIT, tokenDelta } from './markdown.js';
export type { Baseline, CaseReview, DescriptionChange, PlacedFinding, Review, TokenCount, ToolChange } from './types.js';
export type { ReviewOptions } from './collect.js';

/** `check --format markdown|html`: the review of the project's cases against their baseline, with the run's findings. */
export async function formatReview(name: 'markdown' | 'html', project: Project, diagnostics: readonly Diagnostic[], options: ReviewOptions = {}): Promise<string> {
  const review = await collectReview(project, diagnostics, options);
  return name === 'html' ? formatReviewHtml(review) : formatReviewMarkdown(review);
}
