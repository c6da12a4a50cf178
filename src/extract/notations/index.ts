/**
 * The notations the extractor reads without being told: each is one file here, written
 * against the same `defineNotation` interface a config's custom notations use.
 */
import type { NotationDefinition } from '../notation.js';
import { ag2Notation } from './ag2.js';
import { anthropicXmlNotation } from './anthropic-xml.js';
import { cohereNotation } from './cohere.js';
import { deepseekNotation } from './deepseek.js';
import { dspyNotation } from './dspy.js';
import { dsmlNotation } from './dsml.js';
import { functionTagNotation } from './function-tag.js';
import { functionaryNotation } from './functionary.js';
import { functionGemmaNotation } from './functiongemma.js';
import { geminiCliNotation } from './gemini-cli.js';
import { glm4Notation } from './glm4.js';
import { harmonyNotation } from './harmony.js';
import { hermesNotation } from './hermes.js';
import { jsonNotation, proseObjectNotation } from './json.js';
import { kimiNotation } from './kimi.js';
import { langchainXmlNotation } from './langchain-xml.js';
import { lfmNotation } from './lfm.js';
import { messageHistoryNotation } from './message-history.js';
import { mistralNotation } from './mistral.js';
import { pythonTagNotation } from './python-tag.js';
import { pythonicNotation } from './pythonic.js';
import { proseCodeCallNotation } from './code-call.js';
import { sdkReprNotation } from './sdk-repr.js';
import { qwenAgentNotation } from './qwen-agent.js';
import { reactNotation } from './react.js';
import { tagAttributesNotation } from './tag-attributes.js';
import { tagPerToolNotation } from './tag-per-tool.js';

/**
 * In order of preference where two notations claim the same place: tokens and tags that
 * name their format first, then call syntax, then bare JSON.
 */
export const builtInNotations: readonly NotationDefinition<any>[] = [
  hermesNotation,
  anthropicXmlNotation,
  functionTagNotation,
  harmonyNotation,
  deepseekNotation,
  dsmlNotation,
  mistralNotation,
  functionaryNotation,
  lfmNotation,
  kimiNotation,
  functionGemmaNotation,
  qwenAgentNotation,
  pythonTagNotation,
  reactNotation,
  langchainXmlNotation,
  ag2Notation,
  geminiCliNotation,
  cohereNotation,
  dspyNotation,
  tagPerToolNotation,
  tagAttributesNotation,
  sdkReprNotation,
  pythonicNotation,
  glm4Notation,
  proseCodeCallNotation,
  messageHistoryNotation,
  jsonNotation,
  proseObjectNotation,
];

/**
 * Notations written in a model's own special tokens. Their calls can straddle what Markdown
 * sees as a fence (DeepSeek wraps the arguments in a `json` fence between two tokens), so
 * they read the whole text once, before fences and prose are told apart.
 */
export const tokenNotations: ReadonlySet<NotationDefinition<any>> = new Set([harmonyNotation, deepseekNotation, dsmlNotation, mistralNotation, functionaryNotation, lfmNotation, kimiNotation, functionGemmaNotation, qwenAgentNotation, pythonTagNotation]);
