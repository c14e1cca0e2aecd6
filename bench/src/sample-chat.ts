// The typical chat request the converter benchmarks share: a system prompt, a tool call and its
// result, and a follow-up question, with one function tool.

export const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

export const typicalChatRequest = {
  model: "txtA-5",
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "What is the weather in Paris?" },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_01",
          type: "function",
          function: { name: "get_weather", arguments: '{"city":"Paris"}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "call_01", content: '{"temp":21,"sky":"clear"}' },
    { role: "user", content: "And what should I wear?" },
  ],
  tools: [weatherTool],
  temperature: 0.7,
  max_tokens: 1024,
};
