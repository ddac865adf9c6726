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

const VLLM_MINIMAX_M2 = 'vllm-project/vllm tests/tool_parsers/test_minimax_m2_tool_parser.py';
const SGLANG_MINIMAX_M2 = 'sgl-project/sglang test/registered/function_call/test_minimax_m2_detector.py';
const OLLAMA_MINIMAX_M2 = 'ollama/ollama model/parsers/minimaxm2_test.go';
/** llama.cpp's MiniMax-M2 parser tests (tests/test-chat.cpp), read where that suite is split per family. */
const LLAMA_CPP_MINIMAX_M2 = 'ggml-org/llama.cpp tests/test-chat.cpp (MiniMax-M2; ochafik/llama.cpp tests/chat-parsers/test-minimax-m2.cpp)';
const VLLM_MINIMAX_M3 = 'vllm-project/vllm tests/tool_parsers/test_minimax_m3_tool_parser.py';
const VLLM_DSV32 = 'vllm-project/vllm tests/tool_parsers/test_deepseekv32_tool_parser.py';
const VLLM_DSV4 = 'vllm-project/vllm tests/tool_parsers/test_deepseekv4_tool_parser.py';
const SGLANG_DSV32 = 'sgl-project/sglang test/registered/function_call/test_deepseekv32_detector.py';
const VLLM_STEP3 = 'vllm-project/vllm tests/tool_parsers/test_step3_tool_parser.py';
const VLLM_FUNCTIONGEMMA = 'vllm-project/vllm tests/tool_parsers/test_functiongemma_tool_parser.py';
const OLLAMA_FUNCTIONGEMMA = 'ollama/ollama model/parsers/functiongemma_test.go';
const VLLM_HY3 = 'vllm-project/vllm tests/tool_parsers/test_hy_v3_tool_parser.py';
const VLLM_HY_TRUNCATED = 'vllm-project/vllm tests/tool_parsers/test_hy_truncated_stream.py';
const VLLM_APERTUS = 'vllm-project/vllm tests/tool_parsers/test_apertus_tool_parser.py';
const OLLAMA_APERTUS15 = 'ollama/ollama model/parsers/apertus15_test.go (markers from apertus15.go)';
const SGLANG_KIMI_K3 = 'sgl-project/sglang test/registered/function_call/test_kimik3_detector.py (markers from python/sglang/srt/function_call/kimik3_format.py)';

/** DeepSeek DSML as the vLLM tests build it (`FC_START`, `INV_START`, `PARAM_START`…). */
const dsml = (block: string, calls: Array<[string, Array<[string, string, boolean?]>]>) =>
  `<｜DSML｜${block}>\n${calls
    .map(([name, params]) => `<｜DSML｜invoke name="${name}">\n${params.map(([key, value, string = true]) => `<｜DSML｜parameter name="${key}" string="${string}">${value}</｜DSML｜parameter>\n`).join('')}</｜DSML｜invoke>\n`)
    .join('')}</｜DSML｜${block}>`;
/** MiniMax-M3's namespace token and the order call of vLLM's `build_order_call`. */
const M3 = ']<]minimax[>[';
const m3Order = (id: number) => `${M3}<invoke name="create_order">${M3}<user_id>${id}${M3}</user_id>${M3}</invoke>`;
/** Kimi K3's channel markers (sglang kimik3_format.py) and the call block of its test's `_call_block`. */
const K3 = { responseOpen: '<|open|>response<|sep|>', responseClose: '<|close|>response<|sep|>', toolsOpen: '<|open|>tools<|sep|>', toolsClose: '<|close|>tools<|sep|>', messageClose: '<|close|>message<|sep|>', thinkOpen: '<|open|>think<|sep|>', thinkClose: '<|close|>think<|sep|>' };
const k3Call = (tool: string, index: number, args: Record<string, [string, string]>) =>
  `<|open|>call tool="${tool}" index="${index}"<|sep|>${Object.entries(args)
    .map(([key, [type, value]]) => `<|open|>argument key="${key}" type="${type}"<|sep|>${value}<|close|>argument<|sep|>`)
    .join('')}<|close|>call<|sep|>`;
const step3Call = (name: string, params: Array<[string, string]>) => `<｜tool_call_begin｜><steptml:invoke name="${name}">${params.map(([key, value]) => `<steptml:parameter name="${key}">${value}</steptml:parameter>`).join('')}</steptml:invoke><｜tool_call_end｜>`;
const HY_COMPLETE_ARGS = '<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>';

/** Families whose engine tests were not carried over yet: written to the format the named parser reads. */
const FORMAT = (parser: string) => `written to the format of ${parser}`;

export const EXAMPLES: Record<string, Example[]> = {
  'minimax-m2': [
    { source: VLLM_MINIMAX_M2, output: 'Let me check. <minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter></invoke></minimax:tool_call>', calls: [['get_weather', { city: 'Seattle' }]], text: 'Let me check. ' },
    // vLLM's parser has no schema here and gives "5"; reika types it by the tool's schema (days: integer).
    { source: VLLM_MINIMAX_M2, output: '<minimax:tool_call><invoke name="get_weather"><parameter name="city">Seattle</parameter><parameter name="days">5</parameter></invoke></minimax:tool_call>', calls: [['get_weather', { city: 'Seattle', days: 5 }]], text: '' },
    { source: VLLM_MINIMAX_M2, output: '<minimax:tool_call><invoke name="search_web"><parameter name="query">OpenAI</parameter></invoke><invoke name="search_web"><parameter name="query">Gemini</parameter></invoke></minimax:tool_call>', calls: [['search_web', { query: 'OpenAI' }], ['search_web', { query: 'Gemini' }]] },
    { source: VLLM_MINIMAX_M2, output: '<minimax:tool_call><invoke name="update_profile"><parameter name="nickname">null</parameter></invoke></minimax:tool_call>', calls: [['update_profile', { nickname: null }]] },
    { source: VLLM_MINIMAX_M2, output: '<minimax:tool_call><invoke name="update_profile"><parameter name="nickname">Alice</parameter></invoke></minimax:tool_call>', calls: [['update_profile', { nickname: 'Alice' }]] },
    { source: VLLM_MINIMAX_M2, output: '<minimax:tool_call><invoke name="update_settings"><parameter name="config">{"theme": "dark", "fontSize": 14}</parameter></invoke></minimax:tool_call>', calls: [['update_settings', { config: { theme: 'dark', fontSize: 14 } }]] },
    { source: SGLANG_MINIMAX_M2, output: '[Pasted ~4 lines]<minimax:tool_call><invoke name="context_info"><parameter name="metadata_only">false</parameter></invoke>', calls: [['context_info', { metadata_only: false }]], text: '[Pasted ~4 lines]' },
    { source: SGLANG_MINIMAX_M2, output: 'Here is some text.<minimax:tool_call><invoke name="context_info"><parameter name="metadata_only">true</parameter></invoke></minimax:tool_call>More text after.', calls: [['context_info', { metadata_only: true }]], text: 'Here is some text.More text after.' },
    { source: SGLANG_MINIMAX_M2, output: '<minimax:tool_call><invoke name="test_func"><parameter name="content">This text contains </parameter> in it</parameter></invoke></minimax:tool_call>', calls: [['test_func', { content: 'This text contains </parameter> in it' }]] },
    { source: SGLANG_MINIMAX_M2, output: '<minimax:tool_call><invoke name="process_html"><parameter name="html"><div>Hello</div></parameter></invoke></minimax:tool_call>', calls: [['process_html', { html: '<div>Hello</div>' }]] },
    { source: SGLANG_MINIMAX_M2, output: '<minimax:tool_call><invoke name="array_func"><parameter name="items">[1, 2, 3, "four"]</parameter></invoke></minimax:tool_call>', calls: [['array_func', { items: [1, 2, 3, 'four'] }]] },
    { source: OLLAMA_MINIMAX_M2, output: '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">San Francisco</parameter>\n<parameter name="unit">celsius</parameter>\n</invoke>\n</minimax:tool_call>', calls: [['get_weather', { location: 'San Francisco', unit: 'celsius' }]], text: '' },
    { source: OLLAMA_MINIMAX_M2, output: '<minimax:tool_call>\n<invoke name="calculate">\n</invoke>\n</minimax:tool_call>', calls: [['calculate', {}]] },
    { source: OLLAMA_MINIMAX_M2, output: '<minimax:tool_call>\n<invoke name="search_web">\n<parameter name="query">AI news</parameter>\n<parameter name="limit">10</parameter>\n</invoke>\n</minimax:tool_call>', calls: [['search_web', { query: 'AI news', limit: 10 }]] },
    { source: OLLAMA_MINIMAX_M2, output: 'Let me check. <minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>\nDone checking.', calls: [['get_weather', { location: 'Tokyo' }]], text: 'Let me check. \nDone checking.' },
    { source: OLLAMA_MINIMAX_M2, output: '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">Tokyo</parameter>\n</invoke>\n</minimax:tool_call>\nSome text.\n<minimax:tool_call>\n<invoke name="search_web">\n<parameter name="query">news</parameter>\n</invoke>\n</minimax:tool_call>', calls: [['get_weather', { location: 'Tokyo' }], ['search_web', { query: 'news' }]], text: '\nSome text.\n' },
    { source: `${OLLAMA_MINIMAX_M2} (missing closing parameter tag)`, output: '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">Tokyo</invoke>\n</minimax:tool_call>', calls: [['get_weather', { location: 'Tokyo' }]], text: '' },
    { source: `${OLLAMA_MINIMAX_M2} (missing closing invoke tag)`, output: '<minimax:tool_call>\n<invoke name="get_weather">\n<parameter name="location">Tokyo</parameter>\n</minimax:tool_call>', calls: [['get_weather', { location: 'Tokyo' }]], text: '' },
    { source: LLAMA_CPP_MINIMAX_M2, output: '<minimax:tool_call><invoke name="special_function"><parameter name="arg1">1</parameter></invoke></minimax:tool_call>', calls: [['special_function', { arg1: 1 }]], text: '' },
    { source: LLAMA_CPP_MINIMAX_M2, output: '<minimax:tool_call>\n<invoke name="special_function">\n<parameter name="arg1">1</parameter>\n</invoke>\n</minimax:tool_call>Hello, world!\nWhat\'s up?', calls: [['special_function', { arg1: 1 }]], text: "Hello, world!\nWhat's up?" },
    { source: `${OLLAMA_MINIMAX_M2} (single-quoted name attribute)`, output: "<minimax:tool_call><invoke name='get_weather' id=\"123\"><parameter name=\"location\">Tokyo</parameter></invoke></minimax:tool_call>", calls: [['get_weather', { location: 'Tokyo' }]] },
  ],
  'minimax-m3': [
    {
      source: VLLM_MINIMAX_M3,
      output: `I will create it.\n${M3}<tool_call>\n${M3}<invoke name="create_order">${M3}<user_id>42${M3}</user_id>${M3}<urgent>true${M3}</urgent>${M3}<note>Please leave at front desk.${M3}</note>${M3}<shipping>${M3}<city>Singapore${M3}</city>${M3}<zip>018956${M3}</zip>${M3}</shipping>${M3}<items>${M3}<item>${M3}<sku>book-001${M3}</sku>${M3}<qty>2${M3}</qty>${M3}</item>${M3}<item>${M3}<sku>pen-007${M3}</sku>${M3}<qty>5${M3}</qty>${M3}</item>${M3}</items>${M3}<metadata>${M3}<source>mobile${M3}</source>${M3}<campaign>may-launch${M3}</campaign>${M3}</metadata>${M3}<duplicate_demo>${M3}<tag>a${M3}</tag>${M3}<tag>b${M3}</tag>${M3}</duplicate_demo>${M3}</invoke>\n${M3}</tool_call>`,
      calls: [['create_order', { user_id: 42, urgent: true, note: 'Please leave at front desk.', shipping: { city: 'Singapore', zip: 18956 }, items: [{ sku: 'book-001', qty: 2 }, { sku: 'pen-007', qty: 5 }], metadata: { source: 'mobile', campaign: 'may-launch' }, duplicate_demo: { tag: ['a', 'b'] } }]],
      text: 'I will create it.\n',
    },
    { source: VLLM_MINIMAX_M3, output: `${M3}<tool_call>\n${m3Order(1)}\n${m3Order(2)}\n${M3}</tool_call>`, calls: [['create_order', { user_id: 1 }], ['create_order', { user_id: 2 }]], text: '' },
  ],
  dsml: [
    { source: VLLM_DSV32, output: dsml('function_calls', [['get_weather', [['location', 'SF'], ['date', '2024-01-16']]]]), calls: [['get_weather', { location: 'SF', date: '2024-01-16' }]], text: '' },
    { source: VLLM_DSV32, output: `<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_time">\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`, calls: [['get_time', {}]] },
    { source: VLLM_DSV32, output: `Sure, let me check! ${dsml('function_calls', [['get_weather', [['location', 'NYC']]]])}`, calls: [['get_weather', { location: 'NYC' }]], text: 'Sure, let me check! ' },
    { source: VLLM_DSV32, output: dsml('function_calls', [['get_weather', [['location', 'SF']]], ['get_weather', [['location', 'NYC']]]]), calls: [['get_weather', { location: 'SF' }], ['get_weather', { location: 'NYC' }]] },
    { source: VLLM_DSV32, output: dsml('function_calls', [['toggle', [['enabled', 'true', false], ['count', '42', false]]]]), calls: [['toggle', { enabled: true, count: 42 }]] },
    { source: VLLM_DSV32, output: dsml('function_calls', [['score', [['value', '42']]]]), calls: [['score', { value: 42 }]] },
    {
      source: VLLM_DSV32,
      output: dsml('function_calls', [['set_timer', [['wait', '{"type":"for","minutes":2880}', false], ['patches', '[{"op":"replace","path":"/schedule","value":"quiet"}]', false]]]]),
      calls: [['set_timer', { wait: { type: 'for', minutes: 2880 }, patches: [{ op: 'replace', path: '/schedule', value: 'quiet' }] }]],
    },
    { source: VLLM_DSV32, output: dsml('function_calls', [['get_weather', [['arguments', '{"location":"Beijing"}', false]]]]), calls: [['get_weather', { location: 'Beijing' }]] },
    { source: VLLM_DSV32, output: dsml('function_calls', [['get_weather', [['input', '{"location":"Beijing"}']]]]), calls: [['get_weather', { location: 'Beijing' }]] },
    { source: VLLM_DSV32, output: dsml('function_calls', [['unknown_fn', [['count', '42', false], ['flag', 'true', false]]]]), calls: [['unknown_fn', { count: 42, flag: true }]] },
    { source: VLLM_DSV32, output: dsml('function_calls', [['clear', [['value', 'null', false]]]]), calls: [['clear', { value: null }]] },
    { source: VLLM_DSV32, output: dsml('function_calls', [['echo', [['text', 'null', false]]]]), calls: [['echo', { text: 'null' }]] },
    { source: VLLM_DSV4, output: `Let me check. <｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜parameter name="location" string="true">Beijing</｜DSML｜parameter>\n<｜DSML｜parameter name="unit" string="true">celsius</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`, calls: [['get_weather', { location: 'Beijing', unit: 'celsius' }]], text: 'Let me check. ' },
    { source: SGLANG_DSV32, output: '<｜DSML｜function_calls>\n<｜DSML｜invoke name="write_note">\n<｜DSML｜parameter name="payload" string="false">Здравствуйте, мир! Это тест</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>', calls: [['write_note', { payload: 'Здравствуйте, мир! Это тест' }]] },
    { source: SGLANG_DSV32, output: '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="write_note">\n<｜DSML｜parameter name="payload" string="false">{"city": "San Francisco"}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>', calls: [['write_note', { payload: { city: 'San Francisco' } }]] },
  ],
  step3: [
    { source: VLLM_STEP3, output: `<｜tool_calls_begin｜>${step3Call('get_weather', [['city', 'Tokyo']])}<｜tool_calls_end｜>`, calls: [['get_weather', { city: 'Tokyo' }]], text: '' },
    { source: VLLM_STEP3, output: `<｜tool_calls_begin｜>${step3Call('get_weather', [['city', 'Tokyo']])}<｜tool_sep｜>${step3Call('get_time', [['timezone', 'Asia/Tokyo']])}<｜tool_calls_end｜>`, calls: [['get_weather', { city: 'Tokyo' }], ['get_time', { timezone: 'Asia/Tokyo' }]] },
    // The test's parser has no schema for test_function (supports_typed_arguments=False): the values stay text.
    {
      source: VLLM_STEP3,
      output: `<｜tool_calls_begin｜>${step3Call('test_function', [['string_field', 'hello'], ['int_field', '42'], ['float_field', '3.14'], ['bool_field', 'true'], ['null_field', 'null'], ['array_field', '["a", "b", "c"]'], ['object_field', '{"nested": "value"}']])}<｜tool_calls_end｜>`,
      calls: [['test_function', { string_field: 'hello', int_field: '42', float_field: '3.14', bool_field: 'true', null_field: 'null', array_field: '["a", "b", "c"]', object_field: '{"nested": "value"}' }]],
    },
    { source: VLLM_STEP3, output: '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="refresh"></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>', calls: [['refresh', {}]] },
    { source: VLLM_STEP3, output: `Let me check the weather for you.\n\n<｜tool_calls_begin｜>${step3Call('get_weather', [['city', 'Tokyo']])}<｜tool_calls_end｜>\n\nI'll get that information.`, calls: [['get_weather', { city: 'Tokyo' }]], text: "Let me check the weather for you.\n\n\n\nI'll get that information." },
    { source: VLLM_STEP3, output: `<｜tool_calls_begin｜>${step3Call('test_function', [['quoted', 'He said "hello"'], ['path', 'C:\\Users\\file.txt'], ['newline', 'line1\nline2']])}<｜tool_calls_end｜>`, calls: [['test_function', { quoted: 'He said "hello"', path: 'C:\\Users\\file.txt', newline: 'line1\nline2' }]] },
    {
      source: `${VLLM_STEP3} (TestStep3ParameterWhitespace)`,
      output: '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>edit_file\n<steptml:invoke name="edit_file"><steptml:parameter name="old_string">    if x:\n        return 1\n</steptml:parameter><steptml:parameter name="indent"> 4 </steptml:parameter><steptml:parameter name="enabled"> true </steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>',
      calls: [['edit_file', { old_string: '    if x:\n        return 1\n', indent: 4, enabled: true }]],
    },
  ],
  functiongemma: [
    { source: VLLM_FUNCTIONGEMMA, output: '<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>', calls: [['get_weather', { location: 'London' }]], text: '' },
    { source: VLLM_FUNCTIONGEMMA, output: '<start_function_call>call:get_weather{location:<escape>San Francisco<escape>,unit:<escape>celsius<escape>}<end_function_call>', calls: [['get_weather', { location: 'San Francisco', unit: 'celsius' }]] },
    { source: VLLM_FUNCTIONGEMMA, output: 'Let me check the weather for you. <start_function_call>call:get_weather{location:<escape>Paris<escape>}<end_function_call>', calls: [['get_weather', { location: 'Paris' }]], text: 'Let me check the weather for you. ' },
    { source: VLLM_FUNCTIONGEMMA, output: '<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call><start_function_call>call:get_time{timezone:<escape>UTC<escape>}<end_function_call>', calls: [['get_weather', { location: 'London' }], ['get_time', { timezone: 'UTC' }]] },
    { source: `${VLLM_FUNCTIONGEMMA} (streamed without a comma between the arguments)`, output: '<start_function_call>call:get_weather{city:<escape>NYC<escape>unit:<escape>celsius<escape>}<end_function_call>', calls: [['get_weather', { city: 'NYC', unit: 'celsius' }]] },
    { source: `${VLLM_FUNCTIONGEMMA} (_parse_arguments, typed here by the schema)`, output: '<start_function_call>call:search{query:<escape>python<escape>limit:<escape>10<escape>sort:<escape>relevance<escape>}<end_function_call>', calls: [['search', { query: 'python', limit: 10, sort: 'relevance' }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:write_file{content:<escape>first line\nsecond line<escape>}<end_function_call>', calls: [['write_file', { content: 'first line\nsecond line' }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: 'Let me check.<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>', calls: [['get_weather', { city: 'Paris' }]], text: 'Let me check.' },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:add{a:1,b:2}<end_function_call>', calls: [['add', { a: 1, b: 2 }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:set_flag{enabled:true,verbose:false}<end_function_call>', calls: [['set_flag', { enabled: true, verbose: false }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:process{items:[<escape>a<escape>,<escape>b<escape>,<escape>c<escape>]}<end_function_call>', calls: [['process', { items: ['a', 'b', 'c'] }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:update{data:{name:<escape>test<escape>,value:42}}<end_function_call>', calls: [['update', { data: { name: 'test', value: 42 } }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:get_time{}<end_function_call>', calls: [['get_time', {}]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:set_temp{value:3.14}<end_function_call>', calls: [['set_temp', { value: 3.14 }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:test{}<end_function_call>Done!', calls: [['test', {}]], text: 'Done!' },
    { source: OLLAMA_FUNCTIONGEMMA, output: 'こんにちは <start_function_call>call:greet{name:<escape>日本語<escape>}<end_function_call>', calls: [['greet', { name: '日本語' }]], text: 'こんにちは ' },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:create{config:{settings:{enabled:true,name:<escape>test<escape>}}}<end_function_call>', calls: [['create', { config: { settings: { enabled: true, name: 'test' } } }]] },
    { source: OLLAMA_FUNCTIONGEMMA, output: '<start_function_call>call:first{}<end_function_call>Some text here<start_function_call>call:second{}<end_function_call>', calls: [['first', {}], ['second', {}]], text: 'Some text here' },
    { source: OLLAMA_FUNCTIONGEMMA, output: 'The result is a <value> tag', calls: [], text: 'The result is a <value> tag' },
    { source: OLLAMA_FUNCTIONGEMMA, output: 'Hello <start world', calls: [], text: 'Hello <start world' },
  ],
  hunyuan: [
    { source: VLLM_HY3, output: '<tool_calls><tool_call>get_current_date<tool_sep></tool_call></tool_calls>', calls: [['get_current_date', {}]], text: '' },
    { source: VLLM_HY3, output: '<tool_calls>\n<tool_call>get_current_date<tool_sep>\n</tool_call>\n</tool_calls>', calls: [['get_current_date', {}]], text: '' },
    { source: VLLM_HY3, output: '<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Beijing</arg_value><arg_key>date</arg_key><arg_value>2026-03-30</arg_value></tool_call></tool_calls>', calls: [['get_weather', { city: 'Beijing', date: '2026-03-30' }]] },
    { source: VLLM_HY3, output: '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2026-03-30</arg_value>\n</tool_call>\n</tool_calls>', calls: [['get_weather', { city: 'Beijing', date: '2026-03-30' }]] },
    { source: VLLM_HY3, output: 'Checking.<tool_calls>\n<tool_call>get_current_date<tool_sep>\n</tool_call>\n</tool_calls>', calls: [['get_current_date', {}]], text: 'Checking.' },
    {
      source: VLLM_HY3,
      output: '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2026-03-30</arg_value>\n</tool_call>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Hangzhou</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2026-03-30</arg_value>\n</tool_call>\n</tool_calls>',
      calls: [['get_weather', { city: 'Beijing', date: '2026-03-30' }], ['get_weather', { city: 'Hangzhou', date: '2026-03-30' }]],
    },
    { source: VLLM_HY_TRUNCATED, output: `<tool_calls>\n<tool_call>get_weather<tool_sep>\n${HY_COMPLETE_ARGS}\n`, calls: [['get_weather', { city: 'Beijing' }]], text: '' },
    { source: VLLM_HY_TRUNCATED, output: `<tool_calls>\n<tool_call>get_weather<tool_sep>\n${HY_COMPLETE_ARGS}\n<arg_key>date</arg_key>\n<arg_value>2026`, calls: [['get_weather', { city: 'Beijing', date: '2026' }]], text: '' },
    { source: VLLM_HY_TRUNCATED, output: '<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>', calls: [['get_weather', {}]], text: '' },
    { source: VLLM_HY_TRUNCATED, output: `<tool_calls>\n<tool_call>get_weather<tool_sep>\n${HY_COMPLETE_ARGS}\n</tool_call>\n<tool_call>get_weather<tool_sep>\n<arg_key>date</arg_key>\n<arg_value>2026`, calls: [['get_weather', { city: 'Beijing' }], ['get_weather', { date: '2026' }]] },
    { source: `${VLLM_HY_TRUNCATED} (Hy4)`, output: '<tool_calls:opensource>\n<tool_call:opensource>get_weather<arg_key:opensource>city</arg_key:opensource><arg_value:opensource>Beijing</arg_value:opensource></tool_call:opensource>\n</tool_calls:opensource>', calls: [['get_weather', { city: 'Beijing' }]], text: '' },
    { source: `${VLLM_HY_TRUNCATED} (Hy4, a newline between the tags)`, output: '<tool_calls:opensource>\n<tool_call:opensource>get_weather<arg_key:opensource>city</arg_key:opensource>\n<arg_value:opensource>Beijing</arg_value:opensource>', calls: [['get_weather', { city: 'Beijing' }]] },
  ],
  apertus: [
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"get_weather": {"location": "London"}}]<|tools_suffix|>', calls: [['get_weather', { location: 'London' }]], text: '' },
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"get_weather": {"location": "San Francisco", "unit": "celsius"}}]<|tools_suffix|>', calls: [['get_weather', { location: 'San Francisco', unit: 'celsius' }]] },
    { source: VLLM_APERTUS, output: 'Let me check the weather for you. <|tools_prefix|>[{"get_weather": {"location": "Paris"}}]<|tools_suffix|>', calls: [['get_weather', { location: 'Paris' }]], text: 'Let me check the weather for you. ' },
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"get_weather": {"location": "London"}}, {"get_time": {"location": "London"}}]<|tools_suffix|>', calls: [['get_weather', { location: 'London' }], ['get_time', { location: 'London' }]] },
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"complex_function": {"nested": {"inner": "value"}, "list": ["a", "b"]}}]<|tools_suffix|>', calls: [['complex_function', { nested: { inner: 'value' }, list: ['a', 'b'] }]] },
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"get_weather": {"location": "London"}', calls: [['get_weather', { location: 'London' }]], text: '' },
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"get_weather": {"location": "San Francisco", "unit": "celsius"}}]', calls: [['get_weather', { location: 'San Francisco', unit: 'celsius' }]], text: '' },
    { source: VLLM_APERTUS, output: '<|tools_prefix|>[{"t1": {"a": 1}}, {"t2": {"b": 2}}, {"t3": {"c": 3}}]<|tools_suffix|>', calls: [['t1', { a: 1 }], ['t2', { b: 2 }], ['t3', { c: 3 }]] },
    { source: OLLAMA_APERTUS15, output: '<|assistant_start|>Before.<|inner_prefix|>Reason carefully.<|inner_suffix|>After.<|assistant_end|>', calls: [], text: 'Before.After.', reasoning: 'Reason carefully.' },
    { source: OLLAMA_APERTUS15, output: 'I will check.<|tools_prefix|>[{"get_weather":{"city":"Zurich"}},{"get_time":{"offset":2,"dst":true}}]<|tools_suffix|>', calls: [['get_weather', { city: 'Zurich' }], ['get_time', { offset: 2, dst: true }]], text: 'I will check.' },
    { source: OLLAMA_APERTUS15, output: '<|inner_prefix|>Need weather.<|tools_prefix|>[{"get_weather":{"city":"Bern"}}]<|tools_suffix|>', calls: [['get_weather', { city: 'Bern' }]], text: '', reasoning: 'Need weather.' },
    { source: OLLAMA_APERTUS15, output: '<|tools_prefix|>[{"lookup":{"id":"42"}}]', calls: [['lookup', { id: '42' }]], text: '' },
    { source: OLLAMA_APERTUS15, output: 'Before.<|tools_prefix|>[{"first":{"x":1}}]<|tools_suffix|>Between.<|tools_prefix|>[{"second":{"y":2}}]<|tools_suffix|>After.', calls: [['first', { x: 1 }], ['second', { y: 2 }]], text: 'Before.Between.After.' },
    { source: OLLAMA_APERTUS15, output: '<|assistant_start|><|inner_prefix|>Think.<|inner_suffix|>Answer.<|tools_prefix|>[{"lookup":{"id":"42"}}]<|tools_suffix|><|assistant_end|>', calls: [['lookup', { id: '42' }]], text: 'Answer.', reasoning: 'Think.' },
    { source: VLLM_APERTUS, output: 'Hi <|tools_prefix|>[{"get_weather": {"location": "London"}}]<|tools_suffix|> ', calls: [['get_weather', { location: 'London' }]], text: 'Hi  ' },
  ],
  'kimi-k3': [
    { source: SGLANG_KIMI_K3, output: `${K3.responseOpen}Let me run it.${K3.responseClose}${K3.toolsOpen}${k3Call('python', 1, { code: ['string', 'print(1)'], opts: ['object', '{"a": 1}'] })}${K3.toolsClose}`, calls: [['python', { code: 'print(1)', opts: { a: 1 } }]], text: 'Let me run it.' },
    { source: SGLANG_KIMI_K3, output: `${K3.responseOpen}hi there${K3.responseClose}${K3.messageClose}`, calls: [], text: 'hi there' },
    { source: SGLANG_KIMI_K3, output: `${K3.toolsOpen}${k3Call('python', 1, { code: ['string', 'a'] })}${k3Call('python', 2, { code: ['string', 'b'] })}${K3.toolsClose}`, calls: [['python', { code: 'a' }], ['python', { code: 'b' }]], text: '' },
    { source: SGLANG_KIMI_K3, output: `${K3.toolsOpen}${k3Call('python', 1, { code: ['string', 'x'] })}`, calls: [['python', { code: 'x' }]], text: '' },
    { source: SGLANG_KIMI_K3, output: `${K3.toolsOpen}<|open|>call tool="a&amp;b" index="1"<|sep|><|open|>argument key="q" type="string"<|sep|>say &quot;hi&quot;<|close|>argument<|sep|><|close|>call<|sep|>${K3.toolsClose}`, calls: [['a&b', { q: 'say &quot;hi&quot;' }]] },
    { source: SGLANG_KIMI_K3, output: `${K3.toolsOpen}${k3Call('python', 1, { n: ['number', '42'], flag: ['boolean', 'true'], bad: ['object', '{not json'] })}${K3.toolsClose}`, calls: [['python', { n: 42, flag: true, bad: '{not json' }]] },
    { source: SGLANG_KIMI_K3, output: `${K3.toolsOpen}<|open|>call tool="read_agent" index="1"<|sep|><|open|>argument key="id" type="string"<|sep|>worker_1<|close|>argument<|sep|><|close|>call<|sep|>${K3.toolsClose}${K3.messageClose}`, calls: [['read_agent', { id: 'worker_1' }]], text: '' },
    { source: SGLANG_KIMI_K3, output: `${K3.thinkOpen}secret${K3.thinkClose}visible`, calls: [], text: 'visible', reasoning: 'secret' },
    { source: SGLANG_KIMI_K3, output: 'all done<|open|>', calls: [], text: 'all done' },
  ],
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
