/** The ways few-shot tool calls are written in prompts. */
export type Notation =
  | 'fenced-json' // ```tool_call / ```tool_use / ```json fences holding a call or an array of calls
  | 'hermes' // <tool_call>{"name", "arguments"}</tool_call> (Hermes, Qwen)
  | 'anthropic-xml' // <function_calls><invoke name><parameter name>v</parameter></invoke></function_calls>
  | 'anthropic-tool-use' // {"type":"tool_use","name","input"}
  | 'openai-tool-calls' // {"tool_calls":[{"function":{"name","arguments":"<json>"}}]}
  | 'name-arguments' // {"name","arguments"} outside any tag
  | 'llama' // <function=name>{...}</function>
  | 'pythonic' // [get_weather(city="Paris")]
  | 'qwen3-coder-xml' // <function=name><parameter=key>value</parameter></function>
  | 'tag-per-tool' // <read_file><path>a.ts</path></read_file> (Cline, Roo Code)
  | (string & {}); // a custom notation's name

/** One tool call written in a text, with where it is. */
export interface ToolCallExample {
  name: string;
  arguments: unknown;
  notation: Notation;
  /** 0-based offsets of the whole block (fence or opening tag to closing tag) in the text. */
  range: { start: number; end: number };
  /**
   * A call written in code with expressions for some arguments: the keys left out of
   * `arguments` (`*`: unknown keys may be missing). They are not required when it is checked.
   */
  unread?: string[];
  /** 1-based line and column of `range.start`. */
  line: number;
  column: number;
}
