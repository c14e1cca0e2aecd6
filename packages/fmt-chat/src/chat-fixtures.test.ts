import {
  accumulateStream,
  type Response,
  responseSchema,
  responseToEvents,
  streamEventSchema,
} from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { expectWellBracketed } from "../test/bracketing.js";
import { type FixtureName, fixtureJson, fixtureMessages, fixtureNames } from "../test/fixtures.js";
import { chatResponseSchema } from "./chat-api.js";
import { normalizeChatResponse } from "./normalize-chat-response.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { decodeChatMessages } from "./parse-chat-stream.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";

/**
 * Real recordings (fixtures/openai-chat at the repository root) decode without error to these whole values,
 * written out by hand from the recordings: text, reasoning, tool calls, finish and usage.
 * OpenAI prompt_tokens already include cached tokens, so inputTokens is prompt_tokens as sent.
 */
const expectedStreams: Record<FixtureName, Response> = {
  "openai-text": {
    id: "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0",
    model: "gpt-4.1-nano-2025-04-14",
    created: 1770933892,
    message: {
      role: "assistant",
      parts: [
        {
          type: "text",
          text: "**Holiday Name:** Harmony Day\n\n**Date:** Celebrated annually on the first Saturday of May\n\n**Purpose:** Harmony Day is dedicated to fostering understanding, kindness, and unity among diverse communities. It emphasizes celebrating cultural differences while promoting empathy and collaboration.\n\n**Traditions:**\n\n1. **Cultural Potluck Gatherings:** Communities come together to share traditional dishes from their backgrounds, encouraging conversation and curiosity about different cultures.\n\n2. **Story Circles:** People of all ages are encouraged to share stories from their heritage or personal experiences that promote understanding and empathy.\n\n3. **Decorate for Unity:** Public spaces and homes are decorated with symbols representing different cultures—flags, traditional art, and meaningful motifs—to visually celebrate diversity.\n\n4. **Collaborative Art Projects:** Communities create murals or sculptures that symbolize unity and diversity, involving artists and residents of all ages.\n\n5. **Acts of Kindness:** As a central activity, participants perform Small acts of kindness throughout the day, such as volunteering, helping neighbors, or inviting someone new to join festivities.\n\n6. **Music & Dance Festivals:** Local performances showcase a variety of musical styles and dances from different parts of the world, emphasizing shared joy and creativity.\n\n7. **Educational Workshops:** Interactive sessions teach about various cultures’ histories, traditions, and celebrations, fostering respect and knowledge.\n\n**Overall Spirit:** Harmony Day aims to create a sense of global community, reminding everyone that despite our differences, we are all connected through shared human experiences and mutual respect.",
        },
      ],
    },
    finishReason: {
      unified: "stop",
      raw: "stop",
    },
    usage: {
      inputTokens: 16,
      outputTokens: 300,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
      serviceTier: "default",
    },
  },
  "deepseek-reasoning": {
    id: "cac7192e-e619-40c6-96b0-ed4276bc03ac",
    model: "deepseek-reasoner",
    created: 1764661832,
    message: {
      role: "assistant",
      parts: [
        {
          type: "thinking",
          text: 'We need to count the number of the letter "r" in the word "strawberry". The word is spelled: s-t-r-a-w-b-e-r-r-y. Let\'s list the letters and count the "r"s:\n\nPosition 1: s\n2: t\n3: r (first r)\n4: a\n5: w\n6: b\n7: e\n8: r (second r)\n9: r (third r)\n10: y\n\nSo there are three "r"s. But wait, let\'s double-check: "strawberry" indeed has three "r"s: one after "t", and then two consecutive "r"s before "y". So the answer is 3.\n\nThe question is straightforward. However, sometimes people might miscount. Let\'s ensure: The word has 10 letters. The "r"s are at positions 3, 8, and 9. So yes, 3.\n\nThus, the answer is 3.',
        },
        {
          type: "text",
          text: 'The word "strawberry" contains three "r"s.',
        },
      ],
    },
    finishReason: {
      unified: "stop",
      raw: "stop",
    },
    usage: {
      inputTokens: 18,
      outputTokens: 219,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 205,
    },
  },
  "deepseek-tool-call": {
    id: "cca85624-4056-401f-b220-d77601d1f70d",
    model: "deepseek-reasoner",
    created: 1764664568,
    message: {
      role: "assistant",
      parts: [
        {
          type: "thinking",
          text: 'The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to "San Francisco".',
        },
        {
          type: "tool-call",
          id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
          name: "weather",
          arguments: '{"location": "San Francisco"}',
        },
      ],
    },
    finishReason: {
      unified: "tool-calls",
      raw: "tool_calls",
    },
    usage: {
      inputTokens: 339,
      outputTokens: 83,
      cachedInputTokens: 320,
      cacheWriteTokens: 0,
      thinkingTokens: 39,
    },
  },
  "groq-tool-call": {
    id: "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f",
    model: "llama-3.3-70b-versatile",
    created: 1770770843,
    message: {
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "tk85n1k4m",
          name: "weather",
          arguments: "{}",
        },
      ],
    },
    finishReason: {
      unified: "tool-calls",
      raw: "tool_calls",
    },
    usage: {
      inputTokens: 210,
      outputTokens: 15,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    },
  },
};

/** The `.json` twins: separate non-streamed recordings of the same kind of request. */
const expectedResponses: Record<FixtureName, Response> = {
  "openai-text": {
    id: "chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU",
    model: "gpt-4.1-nano-2025-04-14",
    created: 1770933883,
    message: {
      role: "assistant",
      parts: [
        {
          type: "text",
          text: "**Holiday Name:** Galaxy Day  \n\n**Date:** October 31st, aligning with the night sky's peak viewing of constellations and celestial events.  \n\n**Purpose:** Galaxy Day celebrates the universe's vastness, beauty, and our collective curiosity about the cosmos. It's a time to honor science, imagination, and our shared human wonder about the stars and beyond.  \n\n**Traditions:**  \n\n1. **Stargazing Festivals:** Communities host outdoor gatherings in parks, rooftops, or open fields. People set up telescopes, enjoy guided stargazing sessions, and share stories about space, astronomy, and mythologies linked to constellations.  \n\n2. **Cosmic Costumes:** Participants dress up as planets, stars, astronauts, aliens, or celestial phenomena. Parades and costume contests encourage creativity inspired by the universe's mysteries.  \n\n3. **Celestial Art:** Art installations and light shows depict galaxies, nebulae, and astronomical phenomena. Schools and galleries often hold exhibitions or workshops focusing on space-inspired creativity.  \n\n4. **Educational Activities:** Museums and science centers offer special exhibits, planetarium shows, and activities for all ages to learn about space exploration, astronomy, and the universe's origins.  \n\n5. **Offering of Light:** In homage to distant stars, families and communities light candles or lanterns, symbolizing hope, curiosity, and the idea that even the smallest light can illuminate vast darkness—mirroring our quest to find knowledge amidst the cosmos.  \n\n6. **Global Connection:** As Galaxy Day emphasizes shared wonder, people are encouraged to connect virtually with friends or communities worldwide to share discoveries, stories, and aspirations related to space.  \n\nGalaxy Day fosters a sense of unity, exploration, and awe, inspiring individuals to look up and dream beyond our world.",
        },
      ],
    },
    finishReason: {
      unified: "stop",
      raw: "stop",
    },
    usage: {
      inputTokens: 16,
      outputTokens: 363,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
      serviceTier: "default",
    },
    extras: {
      chat: {
        system_fingerprint: "fp_de604bd877",
      },
    },
  },
  "deepseek-reasoning": {
    id: "945bb10c-9bf3-47ff-a2a2-43bbe9705c72",
    model: "deepseek-reasoner",
    created: 1764660903,
    message: {
      role: "assistant",
      parts: [
        {
          type: "thinking",
          text: "We are asked: \"How many 'r's are in the word 'strawberry'?\" We need to count the occurrences of the letter 'r' in the word \"strawberry\". Let's write the word: s-t-r-a-w-b-e-r-r-y. Let's count: positions: 1: s, 2: t, 3: r, 4: a, 5: w, 6: b, 7: e, 8: r, 9: r, 10: y. So there are three 'r's? Wait: at position 3: r, position 8: r, position 9: r. That's three. But sometimes people might think it's two because of pronunciation? But strictly counting letters, it's three. However, let's double-check spelling: \"strawberry\" is spelled S-T-R-A-W-B-E-R-R-Y. Yes, it has two 'r's at the end? Actually, after 'b' comes 'e', then 'r', then 'r', then 'y'. So indeed three 'r's total. But wait, the initial 'r' is the first one? The word starts with 's', then 't', then 'r'. So that's one, then later two consecutive 'r's. So total three. So answer is 3.\n\nBut the question is phrased: \"How many 'r's are in the word 'strawberry'?\" So answer is 3.",
        },
        {
          type: "text",
          text: 'The word "strawberry" contains three instances of the letter "r": one after the "t" and two before the "y".',
        },
      ],
    },
    finishReason: {
      unified: "stop",
      raw: "stop",
    },
    usage: {
      inputTokens: 18,
      outputTokens: 345,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 315,
    },
    extras: {
      chat: {
        system_fingerprint: "fp_eaab8d114b_prod0820_fp8_kvcache",
      },
    },
  },
  "deepseek-tool-call": {
    id: "7a630f5b-b7e6-4878-82f8-d77db164d42b",
    model: "deepseek-reasoner",
    created: 1764665845,
    message: {
      role: "assistant",
      parts: [
        {
          type: "thinking",
          text: 'The user is asking for the weather in San Francisco. I have a weather tool available that can get weather information for a location. I should use this tool with the location parameter set to "San Francisco". Let me call the weather function.',
        },
        {
          type: "tool-call",
          id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo",
          name: "weather",
          arguments: '{"location": "San Francisco"}',
        },
      ],
    },
    finishReason: {
      unified: "tool-calls",
      raw: "tool_calls",
    },
    usage: {
      inputTokens: 339,
      outputTokens: 92,
      cachedInputTokens: 320,
      cacheWriteTokens: 0,
      thinkingTokens: 48,
    },
    extras: {
      chat: {
        system_fingerprint: "fp_eaab8d114b_prod0820_fp8_kvcache",
      },
    },
  },
  "groq-tool-call": {
    id: "chatcmpl-1fd017fc-60b8-44eb-a736-375b8e1bc3e7",
    model: "llama-3.3-70b-versatile",
    created: 1770770815,
    message: {
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "ax9fskhev",
          name: "weather",
          arguments: "{}",
        },
      ],
    },
    finishReason: {
      unified: "tool-calls",
      raw: "tool_calls",
    },
    usage: {
      inputTokens: 218,
      outputTokens: 15,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
      serviceTier: "on_demand",
    },
    extras: {
      chat: {
        usage_breakdown: null,
        system_fingerprint: "fp_f8b414701e",
        x_groq: {
          id: "req_01kh52madzem68scv0bcz3vm00",
          seed: 1790130236,
        },
      },
    },
  },
};

describe("fixture recordings decode to whole expected values", () => {
  for (const name of fixtureNames) {
    it(`${name}: the stream decodes, well bracketed, to the expected response`, () => {
      const events = decodeChatMessages(fixtureMessages(name));
      for (const event of events) expect(streamEventSchema.safeParse(event).success).toBe(true);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      expectWellBracketed(events);
      expect(accumulateStream(events)).toStrictEqual(expectedStreams[name]);
    });

    it(`${name}: the non-streamed body parses to the expected response`, () => {
      const response = parseChatResponse(fixtureJson(name));
      expect(responseSchema.safeParse(response).success).toBe(true);
      expect(response).toStrictEqual(expectedResponses[name]);
    });

    it(`${name}: the body survives render and a stream round trip (laws 1 and 4)`, () => {
      const json = fixtureJson(name);
      const response = parseChatResponse(json);
      expect(renderChatResponse(response)).toStrictEqual(
        normalizeChatResponse(chatResponseSchema.parse(json)),
      );
      expect(parseChatResponse(renderChatResponse(response))).toStrictEqual(response);
      const events = encodeChatEvents(responseToEvents(response), {
        providerExtras: { openai: { includeUsage: true } },
      });
      const { extras: _extras, ...withoutExtras } = response;
      expect(accumulateStream(decodeChatMessages(events))).toStrictEqual(withoutExtras);
    });
  }
});
