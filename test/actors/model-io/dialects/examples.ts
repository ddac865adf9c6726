/**
 * Recorded real model outputs per dialect, carried over as data from the engines' own parser test
 * suites (each entry names its repository and file). `calls` are the calls they must give, in
 * order; `text` (when given) is the prose that must remain around them.
 */
export interface Example {
  source: string;
  output: string;
  calls: Array<[string, Record<string, unknown>?]>;
  text?: string;
  /** The thoughts the markup carried (when given), e.g. Command-R's `<|START_THINKING|>`. */
  reasoning?: string;
  /** Read in the content only (a form that starts at a line of the reply, as Python lines do). */
  contentOnly?: true;
}

const SGLANG = 'sgl-project/sglang test/srt/test_function_call_parser.py';
const OLLAMA = 'ollama/ollama server/model_test.go (TestExecuteWithTools)';
const VLLM_MISTRAL = 'vllm-project/vllm tests/tool_use/test_mistral_tool_parser.py';
const VLLM_INTERNLM = 'vllm-project/vllm tests/entrypoints/openai/tool_parsers/test_internlm2_tool_parser.py';
const SGLANG_GPT_OSS = 'sgl-project/sglang test/srt/function_call/test_gpt_oss_detector.py';
const HARMONY = 'openai/harmony tests (TestStreamableParserToolCallWithConstrainAdjacent)';
const VLLM_GRANITE = 'vllm-project/vllm tests/entrypoints/openai/tool_parsers/test_granite_tool_parser.py';
const VLLM_GRANITE_20B = 'vllm-project/vllm tests/entrypoints/openai/tool_parsers/test_granite_20b_fc_tool_parser.py';
const VLLM_COHERE = 'vllm-project/vllm tests/tool_parsers/test_cohere_command_tool_parser.py';
const VLLM_GEMMA4 = 'vllm-project/vllm tests/tool_parsers/test_gemma4_tool_parser.py';
/** The model outputs llama.cpp's parser tests feed in (Command R7B, Functionary v3.2). */
const LLAMA_CPP_CHAT = 'ggml-org/llama.cpp tests/test-chat.cpp';

const weatherSF = { format: 'fahrenheit', location: 'San Francisco, CA' };
const weatherTO = { format: 'celsius', location: 'Toronto, Canada' };

/** Families whose engine tests were not carried over yet: written to the format the named parser reads. */
const FORMAT = (parser: string) => `written to the format of ${parser}`;

export const EXAMPLES: Record<string, Example[]> = {
  granite: [
    { source: VLLM_GRANITE, output: '<|tool_call|> [{"name": "get_weather", "arguments": {"city": "Tokyo"}}]', calls: [['get_weather', { city: 'Tokyo' }]], text: '' },
    { source: VLLM_GRANITE, output: '<|tool_call|> [\n  {"name": "get_weather", "arguments": {"city": "Tokyo"}},\n  {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}\n]', calls: [['get_weather', { city: 'Tokyo' }], ['get_time', { timezone: 'Asia/Tokyo' }]] },
    { source: VLLM_GRANITE, output: '<|tool_call|> [{"name": "refresh", "arguments": {}}]', calls: [['refresh', {}]] },
    {
      source: VLLM_GRANITE,
      output: '<tool_call> [{\n  "name": "test_function",\n  "arguments": {\n    "string_field": "hello",\n    "int_field": 42,\n    "float_field": 3.14,\n    "bool_field": true,\n    "null_field": null,\n    "array_field": ["a", "b", "c"],\n    "object_field": {"nested": "value"},\n    "empty_array": [],\n    "empty_object": {}\n  }\n}]',
      calls: [['test_function', { string_field: 'hello', int_field: 42, float_field: 3.14, bool_field: true, null_field: null, array_field: ['a', 'b', 'c'], object_field: { nested: 'value' }, empty_array: [], empty_object: {} }]],
    },
    {
      source: VLLM_GRANITE,
      output: String.raw`<tool_call> [{
  "name": "test_function",
  "arguments": {
    "quoted": "He said \"hello\"",
    "path": "C:\\Users\\file.txt",
    "newline": "line1\nline2",
    "unicode": "emoji: 🎉"
  }
}]`,
      calls: [['test_function', { quoted: 'He said "hello"', path: 'C:\\Users\\file.txt', newline: 'line1\nline2', unicode: 'emoji: 🎉' }]],
    },
    { source: VLLM_GRANITE, output: 'Let me check the weather for you.\n<|tool_call|> [{"name": "get_weather", "arguments": {"city": "Tokyo"}}]\nI\'ll get that information.', calls: [['get_weather', { city: 'Tokyo' }]], text: "Let me check the weather for you.\n\nI'll get that information." },
    { source: VLLM_GRANITE_20B, output: '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}', calls: [['get_weather', { city: 'Tokyo' }]], text: '' },
    { source: VLLM_GRANITE_20B, output: '<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}\n<function_call> {"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}', calls: [['get_weather', { city: 'Tokyo' }], ['get_time', { timezone: 'Asia/Tokyo' }]] },
    { source: VLLM_GRANITE_20B, output: 'Let me check the weather for you.\n<function_call> {"name": "get_weather", "arguments": {"city": "Tokyo"}}', calls: [['get_weather', { city: 'Tokyo' }]], text: 'Let me check the weather for you.\n' },
  ],
  'command-r': [
    {
      source: VLLM_COHERE,
      output: '<|START_THINKING|> i will call foo with query1<|END_THINKING|><|START_ACTION|>\n[\n    {"tool_call_id": "0", "tool_name": "foo", "parameters": {"query": "query1"}}\n]\n<|END_ACTION|>',
      calls: [['foo', { query: 'query1' }]],
      reasoning: 'i will call foo with query1',
      text: '',
    },
    {
      source: VLLM_COHERE,
      output: '<|START_THINKING|>first I think about foo<|END_THINKING|><|START_ACTION|>\n[\n    {"tool_call_id": "0", "tool_name": "foo", "parameters": {"query": "query1"}},\n    {"tool_call_id": "1", "tool_name": "bar", "parameters": {"x": 42}}\n]\n<|END_ACTION|>',
      calls: [['foo', { query: 'query1' }], ['bar', { x: 42 }]],
      reasoning: 'first I think about foo',
    },
    {
      source: LLAMA_CPP_CHAT,
      output: '<|START_THINKING|>I\'m\nthinking<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "special_function", "parameters": {"arg1": 1}}\n]<|END_ACTION|>',
      calls: [['special_function', { arg1: 1 }]],
      reasoning: "I'm\nthinking",
      text: '',
    },
    { source: LLAMA_CPP_CHAT, output: "<|START_THINKING|>I'm\nthinking<|END_THINKING|><|START_RESPONSE|>Hello, world!\nWhat's up?<|END_RESPONSE|>", calls: [], reasoning: "I'm\nthinking", text: "Hello, world!\nWhat's up?" },
  ],
  gemma: [{ source: FORMAT('Gemma 3 function calling (tool_code fences)'), output: '```tool_code\nget_weather(city="Paris")\n```', calls: [['get_weather', { city: 'Paris' }]] }],
  gemma4: [
    { source: VLLM_GEMMA4, output: '<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|>', calls: [['get_weather', { location: 'London' }]], text: '' },
    { source: VLLM_GEMMA4, output: '<|tool_call>call:get_weather{location:<|"|>San Francisco<|"|>,unit:<|"|>celsius<|"|>}<tool_call|>', calls: [['get_weather', { location: 'San Francisco', unit: 'celsius' }]] },
    { source: VLLM_GEMMA4, output: 'Let me check the weather for you. <|tool_call>call:get_weather{location:<|"|>Paris<|"|>}<tool_call|>', calls: [['get_weather', { location: 'Paris' }]], text: 'Let me check the weather for you. ' },
    { source: VLLM_GEMMA4, output: '<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|><|tool_call>call:get_time{location:<|"|>London<|"|>}<tool_call|>', calls: [['get_weather', { location: 'London' }], ['get_time', { location: 'London' }]] },
    { source: VLLM_GEMMA4, output: '<|tool_call>call:complex_function{nested:{inner:<|"|>value<|"|>},list:[<|"|>a<|"|>,<|"|>b<|"|>]}<tool_call|>', calls: [['complex_function', { nested: { inner: 'value' }, list: ['a', 'b'] }]] },
    { source: VLLM_GEMMA4, output: '<|tool_call>call:set_status{is_active:true,count:42,score:3.14}<tool_call|>', calls: [['set_status', { is_active: true, count: 42, score: 3.14 }]] },
    { source: VLLM_GEMMA4, output: '<|tool_call>call:get_status{}<tool_call|>', calls: [['get_status', {}]] },
    { source: VLLM_GEMMA4, output: '<|tool_call>call:get_weather{location:<|"|>Paris, France<|"|>}<tool_call|>', calls: [['get_weather', { location: 'Paris, France' }]] },
    { source: FORMAT('test/fixtures/chat-templates/google-gemma-4-31B-it.jinja (how it renders calls)'), output: '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:2}<tool_call|>', calls: [['get_weather', { city: 'Paris', days: 2 }]] },
  ],
  functionary: [
    { source: LLAMA_CPP_CHAT, output: 'all\nHello, world!\nnono\nWhat\'s up?>>>special_function\n{"arg1": 1}\n', calls: [['special_function', { arg1: 1 }]], text: "Hello, world!\nnono\nWhat's up?\n", contentOnly: true },
    { source: LLAMA_CPP_CHAT, output: 'special_function\n{"arg1": 1} \n                    ', calls: [['special_function', { arg1: 1 }]], contentOnly: true },
    { source: LLAMA_CPP_CHAT, output: "all\nHello, world!\nWhat's up?", calls: [], text: "Hello, world!\nWhat's up?", contentOnly: true },
    { source: LLAMA_CPP_CHAT, output: 'all\nHello, world!\nnono\nWhat\'s up?\n>>>special_function\n{"arg1": 1}\n', calls: [['special_function', { arg1: 1 }]] },
    { source: FORMAT('ggml-org/llama.cpp common/chat.cpp (Functionary v3.2)'), output: '>>>get_weather\n{"city": "Paris"}\n>>>search\n{"query": "museums"}', calls: [['get_weather', { city: 'Paris' }], ['search', { query: 'museums' }]] },
  ],
  python: [{ source: FORMAT('reika text-calls (a call on its own line)'), output: 'I will look it up.\nget_weather(city="Paris")\n', calls: [['get_weather', { city: 'Paris' }]], text: 'I will look it up.\n\n', contentOnly: true }],
  hermes: [
    { source: SGLANG, output: '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_tourist_attractions", "arguments": {"city": "London"}}</tool_call>', calls: [['get_weather', { city: 'Paris' }], ['get_tourist_attractions', { city: 'London' }]] },
    { source: OLLAMA, output: '<tool_call>\n{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, CA"}}\n{"name": "get_current_weather", "arguments": {"format":"celsius","location":"Toronto, Canada"}}\n</tool_call>', calls: [['get_current_weather', weatherSF], ['get_current_weather', weatherTO]] },
    { source: LLAMA_CPP_CHAT, output: '<tool_call>\n{"name": "special_function", "arguments": {"arg1": 1}}\n</tool_call>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: 'Hello, world!\nWhat\'s up?<tool_call>\n{"name": "special_function", "arguments": {"arg1": 1}}\n</tool_call>', calls: [['special_function', { arg1: 1 }]], text: "Hello, world!\nWhat's up?" },
    { source: LLAMA_CPP_CHAT, output: '<function=special_function>{"arg1": 1}</function>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '<function name="special_function">\n{"arg1": 1}\n</function>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '<tool>\n  {"name": "special_function", "arguments": {"arg1": 1}}\n</tool>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '<tools>\n  {"name": "special_function", "arguments": {"arg1": 1}}\n</tools>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '<response>\n  {"name": "special_function", "arguments": {"arg1": 1}}\n</response>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '```xml\n<response>\n    {"name": "special_function", "arguments": {"arg1": 1}}\n</response>\n```', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '```xml\n  {"name": "special_function", "arguments": {"arg1": 1}}\n```', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '```\n  {"name": "special_function", "arguments": {"arg1": 1}}\n```', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_CHAT, output: '```json\n  {"name": "special_function", "arguments": {"arg1": 1}}\n```', calls: [['special_function', { arg1: 1 }]], text: '' },
  ],
  'qwen3-coder': [
    { source: SGLANG, output: '<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>', calls: [['get_current_weather', { city: 'Dallas', state: 'TX', unit: 'fahrenheit' }]] },
    { source: SGLANG, output: 'Sure! Let me check the weather for you.<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>', calls: [['get_current_weather', { city: 'Dallas', state: 'TX', unit: 'fahrenheit' }]], text: 'Sure! Let me check the weather for you.' },
    { source: SGLANG, output: '<tool_call>\n<function=calculate_area>\n<parameter=shape>\nrectangle\n</parameter>\n<parameter=dimensions>\n{"width": 10,\n "height": 20}\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n</tool_call>', calls: [['calculate_area', { shape: 'rectangle', dimensions: { width: 10, height: 20 }, precision: 2 }]] },
    { source: SGLANG, output: '<tool_call>\n<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_current_weather>\n<parameter=city>\nOrlando\n</parameter>\n<parameter=state>\nFL\n</parameter>\n<parameter=unit>\nfahrenheit\n</parameter>\n</function>\n</tool_call>', calls: [['get_current_weather', { city: 'Dallas', state: 'TX', unit: 'fahrenheit' }], ['get_current_weather', { city: 'Orlando', state: 'FL', unit: 'fahrenheit' }]] },
    { source: SGLANG, output: '<tool_call>\n<function=get_current_weather>\n</function>\n</tool_call>', calls: [['get_current_weather', {}]] },
    { source: SGLANG, output: '<function=get_current_weather>\n<parameter=city>\nDallas\n</parameter>\n<parameter=state>\nTX\n</parameter>\n</function>', calls: [['get_current_weather', { city: 'Dallas', state: 'TX' }]] },
  ],
  glm: [
    { source: SGLANG, output: '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2024-06-27</arg_value>\n</tool_call>', calls: [['get_weather', { city: 'Beijing', date: '2024-06-27' }]] },
    { source: SGLANG, output: '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2024-06-27</arg_value>\n</tool_call><tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Shanghai</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2024-06-28</arg_value>\n</tool_call>', calls: [['get_weather', { city: 'Beijing', date: '2024-06-27' }], ['get_weather', { city: 'Shanghai', date: '2024-06-28' }]] },
    { source: SGLANG, output: '<tool_call>todo_write\n<arg_key>todos</arg_key>\n<arg_value>[{"id": "1", "task": "Check for hard-coded issues in the backend code", "status": "in_progress"}, {"id": "2", "task": "Generate a rectification proposal report", "status": "pending"}]</arg_value>\n</tool_call>', calls: [['todo_write', { todos: [{ id: '1', task: 'Check for hard-coded issues in the backend code', status: 'in_progress' }, { id: '2', task: 'Generate a rectification proposal report', status: 'pending' }] }]] },
  ],
  llama3: [
    { source: SGLANG, output: '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};{"name": "get_tourist_attractions", "parameters": {"city": "Paris"}}', calls: [['get_weather', { city: 'Paris' }], ['get_tourist_attractions', { city: 'Paris' }]] },
    { source: SGLANG, output: '<|python_tag|>{"name": "get_weather", "parameters": {}}<|python_tag|>{"name": "get_tourist_attractions", "parameters": {}}', calls: [['get_weather', {}], ['get_tourist_attractions', {}]] },
    { source: SGLANG, output: 'Some intro. <|python_tag|>{"name": "get_weather", "parameters": {}}', calls: [['get_weather', {}]], text: 'Some intro. ' },
  ],
  json: [
    { source: SGLANG, output: '{"name": "get_weather", "parameters": {"city": "Paris"}}', calls: [['get_weather', { city: 'Paris' }]] },
    { source: SGLANG, output: '{"name": "get_weather", "parameters": {}} Some follow-up text', calls: [['get_weather', {}]], text: ' Some follow-up text' },
    { source: SGLANG, output: ' \n\n [{"name": "get_weather", "parameters": {"location": "Tokyo"}}]', calls: [['get_weather', { location: 'Tokyo' }]] },
    { source: OLLAMA, output: '{"tool_calls": [{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, CA"}},{"name": "get_current_weather", "arguments": {"format":"celsius","location":"Toronto, Canada"}}]}', calls: [['get_current_weather', weatherSF], ['get_current_weather', weatherTO]] },
    { source: OLLAMA, output: 'I\'m not aware of that information. However, I can suggest searching for the weather using the "get_current_weather" function:\n\n\t\t[{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, CA"}},{"name": "get_current_weather", "arguments": {"format":"celsius","location":"Toronto, Canada"}}]', calls: [['get_current_weather', weatherSF], ['get_current_weather', weatherTO]] },
  ],
  pythonic: [
    { source: SGLANG, output: "Here's a tool call: [get_weather(location='New York', unit='celsius')]", calls: [['get_weather', { location: 'New York', unit: 'celsius' }]], text: "Here's a tool call: " },
    { source: SGLANG, output: "[get_weather(location='Berlin')] and [search(query='restaurants')]", calls: [['get_weather', { location: 'Berlin' }], ['search', { query: 'restaurants' }]], text: ' and ' },
    { source: SGLANG, output: "[search(query='test', config={'options': [1, 2], 'nested': {'key': 'value'}})]", calls: [['search', { query: 'test', config: { options: [1, 2], nested: { key: 'value' } } }]] },
    { source: SGLANG, output: "[get_weather(location='Paris', data=[10, 20]), search(query='test', filters=['a', 'b'])]", calls: [['get_weather', { location: 'Paris', data: [10, 20] }], ['search', { query: 'test', filters: ['a', 'b'] }]] },
    { source: SGLANG, output: "Here's a call: <|python_start|>[get_weather(location='Tokyo', data=[1, 2, 3])]<|python_end|>", calls: [['get_weather', { location: 'Tokyo', data: [1, 2, 3] }]], text: "Here's a call: " },
    { source: SGLANG, output: "User wants to get the weather in Mars. <|python_start|>[get_weather(location='Mars', unit='celsius')]<|python_end|> In this way we will get the weather in Mars.", calls: [['get_weather', { location: 'Mars', unit: 'celsius' }]], text: 'User wants to get the weather in Mars.  In this way we will get the weather in Mars.' },
  ],
  mistral: [
    { source: SGLANG, output: '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"TOOL", "content":"Use weather API"}}]', calls: [['make_next_step_decision', { decision: 'TOOL', content: 'Use weather API' }]] },
    { source: SGLANG, output: 'Here is some text before the tool call: [TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"ANSWER", "content":"The answer is 42"}}]', calls: [['make_next_step_decision', { decision: 'ANSWER', content: 'The answer is 42' }]] },
    { source: SGLANG, output: '[TOOL_CALLS] [{"name":"make_next_step_decision", "arguments":{"decision":"","content":"```\\nTOOL: Access a weather API or service\\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\\n```"}}]', calls: [['make_next_step_decision', { decision: '', content: '```\nTOOL: Access a weather API or service\nANSWER: The weather in the top 5 populated cities in the US is as follows: [City Name] - [Weather Conditions] - [Temperature]\n```' }]] },
    { source: VLLM_MISTRAL, output: '[TOOL_CALLS]add_this_and_that{"a": 3.5, "b": 4}', calls: [['add_this_and_that', { a: 3.5, b: 4 }]] },
    { source: VLLM_MISTRAL, output: '[TOOL_CALLS]add[ARGS]{"a": 3.5, "b": 4}[TOOL_CALLS]multiply[ARGS]{"a": 3, "b": 6}', calls: [['add', { a: 3.5, b: 4 }], ['multiply', { a: 3, b: 6 }]] },
    { source: VLLM_MISTRAL, output: 'hi[TOOL_CALLS]add[ARGS]{"a": 1, "b": 2}', calls: [['add', { a: 1, b: 2 }]], text: 'hi' },
    { source: VLLM_MISTRAL, output: 'hi{hi[TOOL_CALLS]bash{"command": "print(\\"hello world!\\")\\nre.compile(r\'{}\')"}', calls: [['bash', { command: "print(\"hello world!\")\nre.compile(r'{}')" }]], text: 'hi{hi' },
    { source: VLLM_MISTRAL, output: '[TOOL_CALLS]  [ {"name":"add" , "arguments" : {"a": 3, "b": 4} } ]', calls: [['add', { a: 3, b: 4 }]] },
    { source: OLLAMA, output: '[TOOL_CALLS]  [{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, CA"}},{"name": "get_current_weather", "arguments": {"format":"celsius","location":"Toronto, Canada"}}]\n\nThe temperature in San Francisco, CA is 70°F and in Toronto, Canada is 20°C.', calls: [['get_current_weather', weatherSF], ['get_current_weather', weatherTO]], text: '\n\nThe temperature in San Francisco, CA is 70°F and in Toronto, Canada is 20°C.' },
  ],
  deepseek: [
    { source: SGLANG, output: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city":"Shanghai"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_tourist_attractions\n```json\n{"city": "Beijing"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>', calls: [['get_weather', { city: 'Shanghai' }], ['get_tourist_attractions', { city: 'Beijing' }]] },
  ],
  'kimi-k2': [
    { source: SGLANG, output: '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>', calls: [['get_weather', { city: 'Paris' }]] },
    { source: SGLANG, output: '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_call_begin|>functions.get_tourist_attractions:1<|tool_call_argument_begin|>{"city": "London"}<|tool_call_end|><|tool_calls_section_end|>', calls: [['get_weather', { city: 'Paris' }], ['get_tourist_attractions', { city: 'London' }]] },
  ],
  harmony: [
    {
      source: SGLANG_GPT_OSS,
      output: '<|channel|>analysis<|message|>Need to gather data<|end|><|start|>assistant<|channel|>commentary to=functions.get_current_weather<|constrain|>json<|message|>{"location": "San Francisco, CA", "unit": "fahrenheit"}<|call|><|channel|>commentary to=functions.get_current_weather<|constrain|>json<|message|>{"location": "New York, NY", "unit": "fahrenheit"}<|call|>',
      calls: [['get_current_weather', { location: 'San Francisco, CA', unit: 'fahrenheit' }], ['get_current_weather', { location: 'New York, NY', unit: 'fahrenheit' }]],
      text: '',
    },
    { source: HARMONY, output: '<|start|>assistant<|channel|>commentary to=functions.get_weather<|constrain|>json<|message|>{"latitude":48.8566,"longitude":2.3522}<|end|>', calls: [['get_weather', { latitude: 48.8566, longitude: 2.3522 }]] },
  ],
  internlm: [
    { source: VLLM_INTERNLM, output: '<|action_start|><|plugin|>{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>', calls: [['get_weather', { city: 'Tokyo' }]] },
    { source: VLLM_INTERNLM, output: 'Let me check the weather for you. <|action_start|><|plugin|>{"name": "get_weather", "parameters": {"city": "Tokyo"}}<|action_end|>', calls: [['get_weather', { city: 'Tokyo' }]], text: 'Let me check the weather for you. ' },
    { source: VLLM_INTERNLM, output: '<|action_start|><|plugin|>{\n  "name": "test_function",\n  "parameters": {\n    "string_field": "hello",\n    "int_field": 42,\n    "bool_field": true,\n    "null_field": null,\n    "array_field": ["a", "b", "c"],\n    "object_field": {"nested": "value"}\n  }\n}<|action_end|>', calls: [['test_function', { string_field: 'hello', int_field: 42, bool_field: true, null_field: null, array_field: ['a', 'b', 'c'], object_field: { nested: 'value' } }]] },
  ],
  phi4: [{ source: OLLAMA, output: ' functools[{"name": "get_current_weather", "arguments": {"format":"fahrenheit","location":"San Francisco, CA"}},{"name": "get_current_weather", "arguments": {"format":"celsius","location":"Toronto, Canada"}}]', calls: [['get_current_weather', weatherSF], ['get_current_weather', weatherTO]], text: ' ' }],
  fenced: [
    {
      source: OLLAMA,
      output: 'Action: ```json\n[\n    {\n        "tool_name": "get_current_weather",\n        "parameters": {\n            "format": "fahrenheit",\n            "location": "San Francisco, CA"\n        }\n    },\n    {\n        "tool_name": "get_current_weather",\n        "parameters": {\n            "format": "celsius",\n            "location": "Toronto, Canada"\n        }\n    }\n]\n```',
      calls: [['get_current_weather', weatherSF], ['get_current_weather', weatherTO]],
      text: 'Action: ',
    },
  ],
};
