// VAGEN's judge prompts for the visual reasoning reward (vagen/env/sokoban/prompt.py and
// vagen/env/frozenlake/prompt.py, `visual_reasoning_reward_prompt`, as its Sokoban and FrozenLake
// services send them): the judge turns a description into relations to the player, as JSON, and
// the env scores those against its true state. The text is VAGEN's, unchanged.

/** VAGEN's Sokoban judge prompt around a description (an `<observation>` or a `<prediction>`). */
export function sokobanJudgePrompt(description: string): string {
  return `You are a text parser assistant. Your task is to extract relative spatial relationships between objects and the 'player' from a given text description (either an observation or a prediction) in a Sokoban environment, and output this information in a structured JSON format.

**Input:** You will receive a block of text that describes a state or a predicted state.
**Output:** You must output a JSON array. Each object in the array describes the relationship of one specific non-player object to the player.

**Objects to Look For:**
- target
- **box** (Treat any mention of 'box', 'box0', 'box1', etc., as referring to the general 'box' type.)

**Required JSON Output Format:**
A JSON array [...] where each element is an object {...} with the following keys:
- "object_id": string. The identifier of the object. Must be "target", or "box". **For any mention of any box (box0, box1, 'a box', the box'), this MUST be "box".**
- "vertical_relation": string or null. The vertical position relative to the player. Must be one of: "above", "below", "same", or null if not mentioned or unclear.
- "horizontal_relation": string or null. The horizontal position relative to the player. Must be one of: "left", "right", "same", or null if not mentioned or unclear.

**Instructions:**
1.  Read the input text carefully.
2.  Identify descriptions of relative position for any of the "Objects to Look For" with respect to the "player".
3.  **Crucially, for any mention of any box (e.g., "box0", "box1", "the box", "a box"), extract its relationship but set its "object_id" to "box" in the output JSON.** If multiple boxes have distinct relationships, create a separate JSON object entry for each distinct relationship, all with "object_id": "box".
4.  Extract the vertical and horizontal components of the relationship. **Map variations in phrasing (like "on the left side", "to the right of the player", "same position as player", "same spot as target", "same spot as a box") to the specific allowed terms ("above", "below", "same", "left", "right").**
5.  **Handling Absolute Positions (Edge Case):** If the text describes an object's position using *absolute* terms like "top-left corner", "bottom-right corner", and the player's relative position is implied (e.g., player is known to be at the opposite corner), attempt to infer the relative position *relative to the player* using the allowed terms ("above", "below", "left", "right", "same"). For example, if the text says "target is at the top-left corner" and the player is implied to be at the bottom-right, infer "target is above and left of player". *However, prioritize extraction from text that uses direct relative terminology.*
6.  **Handling Partial or Unclear Information:** If a specific object (target, box) is mentioned but *only* its vertical or horizontal relationship is described (or only implicitly), set the other relationship to null. If a relationship is too vague ("near") or doesn't use terms that can be mapped to the allowed set, set both vertical_relation and horizontal_relation to null for that object, or consider omitting the object's entry if the description is entirely unmappable.
7.  **Ignoring Irrelevant Information:** Ignore any part of the text that does not describe the relative position of an object from the "Objects to Look For" list with respect to the player, especially descriptions of actions, reasons, or generic objects without IDs.
8.  If an object from the "Objects to Look For" list is *not* mentioned in the input text with a relevant description, do NOT include it in the output JSON array.
9.  If the input text contains no extractable relationships for the listed objects using the allowed terms and inference rules, output an empty JSON array [].
10. Your output must be *only* the JSON string, and it must be valid JSON.

**Example 1 (Target and Box):**
Input Text:
The target is above and left of the player. A box is right of the player.

Objects to Look For: target, box

Expected JSON Output:
\`\`\`json
[
  {
    "object_id": "target",
    "vertical_relation": "above",
    "horizontal_relation": "left"
  },
  {
    "object_id": "box",
    "vertical_relation": null, // Vertical relation not mentioned
    "horizontal_relation": "right"
  }
]
\`\`\`
*(Note: The box's vertical relation was not specified, so it's null.)*

**Example 2 (Multiple Boxes):**
Input Text:
There is a box above me and another box left of me. The target is far above and left.

Objects to Look For: target, box

Expected JSON Output:
\`\`\`json
[
  {
    "object_id": "box",
    "vertical_relation": "above",
    "horizontal_relation": null // Horizontal relation not mentioned for the first box
  },
  {
    "object_id": "box",
    "vertical_relation": null, // Vertical relation not mentioned for the second box
    "horizontal_relation": "left"
  },
  {
    "object_id": "target",
    "vertical_relation": "above",
    "horizontal_relation": "left" // "far above and left" maps to "above" and "left"
  }
]
\`\`\`
*(Note: Two distinct box relationships are listed, both with object_id "box". Vertical/horizontal relations are null if not explicitly mentioned.)*

**Example 3 (Box on Target / Same Place):**
Input Text:
The box is on the target, and they are both at the same spot as the player.

Objects to Look For: target, box

Expected JSON Output:
\`\`\`json
[
  {
    "object_id": "box",
    "vertical_relation": "same",
    "horizontal_relation": "same"
  },
  {
    "object_id": "target",
    "vertical_relation": "same",
    "horizontal_relation": "same"
  }
]
\`\`\`
*(Note: "on the target" combined with "same spot as player" implies the box is also at the same spot as the player.)*

**Example 4 (Absolute Corners - Sokoban Context):**
Input Text:
The player is at the bottom-right corner. The target is at the top-right. A box is at the bottom-left.

Objects to Look For: target, box

Expected JSON Output:
\`\`\`json
[
  {
    "object_id": "target",
    "vertical_relation": "above", // Target at top-right relative to player at bottom-right
    "horizontal_relation": "same"
  },
  {
    "object_id": "box",
    "vertical_relation": "same", // Box at bottom-left relative to player at bottom-right
    "horizontal_relation": "left"
  }
]
\`\`\`
*(Note: Inferring relative positions from absolute corner descriptions based on player's known corner.)*

**Example 5 (No Relevant Info):**
Input Text:
I need to find the correct path.

Objects to Look For: target, box

Expected JSON Output:
\`\`\`json
[]
\`\`\`

---
Input Text to Parse:
${description}

Objects to Look For: target, box # Ensure this list matches the main list above if needed

JSON Output:
`;
}

/** VAGEN's FrozenLake judge prompt around a description (an \`<observation>\` or a \`<prediction>\`). */
export function frozenLakeJudgePrompt(description: string): string {
  return `You are a text parser assistant. Your task is to extract relative spatial relationships between objects and the 'player' from a given text description (either an observation or a prediction) and output this information in a structured JSON format.

**Input:** You will receive a block of text that describes a state or a predicted state.
**Output:** You must output a JSON array. Each object in the array describes the relationship of one specific non-player object to the player.

**Objects to Look For:**
- target (If the input text has the mention of "gift box", that could referring the target, if the input has the mention of player and hole and another object, that also could be referring the target)
- **hole** (Treat any mention of 'hole', 'hole0', 'hole1', etc., as referring to the general 'hole' type.)

**Required JSON Output Format:**
A JSON array [...] where each element is an object {...} with the following keys:
- "object_id": string. The identifier of the object. Must be "target", or "hole". **For any mention of any hole (hole0, hole1, 'a hole', the hole'), this MUST be "hole".**
- "vertical_relation": string or null. The vertical position relative to the player. Must be one of: "above", "below", "same", or null if not mentioned or unclear.
- "horizontal_relation": string or null. The horizontal position relative to the player. Must be one of: "left", "right", "same", or null if not mentioned or unclear.

**Instructions:**
1.  Read the input text carefully.
2.  Identify descriptions of relative position for any of the "Objects to Look For" with respect to the "player".
3.  **Crucially, for any mention of any hole (e.g., "hole0", "hole1", "the hole", "a hole"), extract its relationship but set its "object_id" to "hole" in the output JSON.** If multiple holes have distinct relationships, create a separate JSON object entry for each distinct relationship, all with "object_id": "hole".
4.  Extract the vertical and horizontal components of the relationship. **Map variations in phrasing (like "on the left side", "to the right of the player", "same position as player", "same spot as target") to the specific allowed terms ("above", "below", "same", "left", "right").**
5.  **Handling Absolute Positions (Edge Case):** If the text describes an object's position using *absolute* terms like "top-left corner", "bottom-right corner", and the player's relative position is implied (e.g., player is known to be at the opposite corner), attempt to infer the relative position *relative to the player* using the allowed terms ("above", "below", "left", "right", "same"). For example, if the text says "target is at the top-left corner" and the player is implied to be at the bottom-right, infer "target is above and left of player". *However, prioritize extraction from text that uses direct relative terminology.*
6.  **Handling Partial or Unclear Information:** If a specific object (target, or a hole) is mentioned but *only* its vertical or horizontal relationship is described (or only implicitly), set the other relationship to null. If a relationship is too vague ("near") or doesn't use terms that can be mapped to the allowed set, set both vertical_relation and horizontal_relation to null for that object, or consider omitting the object's entry if the description is entirely unmappable.
7.  **Ignoring Irrelevant Information:** Ignore any part of the text that does not describe the relative position of an object from the "Objects to Look For" list with respect to the player, especially descriptions of actions, reasons, or generic objects without IDs.
8.  If an object from the "Objects to Look For" list is *not* mentioned in the input text with a relevant description, do NOT include it in the output JSON array.
9.  If the input text contains no extractable relationships for the listed objects using the allowed terms and inference rules, output an empty JSON array [].
10. Your output must be *only* the JSON string, and it must be valid JSON.

**Example 1 (Handling Absolute Corners):**
Input Text:
The player is at the bottom-right corner, the target is at the top-left corner, there are two ice blocks on the left and top sides of the player.

Objects to Look For: target, hole

Expected JSON Output:
\`\`\`json
[
  {
    "object_id": "target",
    "vertical_relation": "above", // Inferred from target at top-left and player at bottom-right
    "horizontal_relation": "left" // Inferred from target at top-left and player at bottom-right
  } 
]
\`\`\`
*(Note: "ice blocks" are ignored if they are not in the "Objects to Look For" list with specific IDs or if their description ("on the left and top sides") is considered too vague or not using the exact required terms for parsing by this small model.  The example assumes a strict interpretation focusing on target/hole and explicit relative terms or simple corner inferences.)*

**Example 2 (Handling Multiple Holes & Partial Info):**
Input Text:
Hole0 is above. The target is right of the player. Hole1 is below and same column. Avoid the ice.

Objects to Look For: target, hole

Expected JSON Output:
\`\`\`json
[
  { 
    "object_id": "hole",
    "vertical_relation": "above",
    "horizontal_relation": null // Horizontal relation not mentioned for Hole0
  }, { 
    "object_id": "target",
    "vertical_relation": null, // Vertical relation is not mentioned for Target
    "horizontal_relation": "right"
  }, {
    "object_id": "hole",
    "vertical_relation": "below",
    "horizontal_relation": "same" // same column maps to same horizontal
  } 
]
\`\`\`
*(Note: Hole0 and Hole1 are both mapped to object_id "hole". Their distinct relationships are preserved. Text like "Avoid the ice" is ignored.)*

**Example 3 (Mapping "Same Place" and Ignoring Irrelevant):**
Input Text:
The player will reach the target. There is a pit nearby. Hole2 is same spot as player.

Objects to Look For: target, hole

Expected JSON Output:
\`\`\`json
[
  { 
    "object_id": "target",
    "vertical_relation": "same", // "reach the target" or similar implies "same place"
    "horizontal_relation": "same"
  }, { 
    "object_id": "hole",
    "vertical_relation": "same", // "same spot" maps to "same place"
    "horizontal_relation": "same"
  } 
]
\`\`\`
*(Note: "a pit nearby" is ignored if not in the "Objects to Look For" or described with required terms. "same spot" maps to "same" for both relations.)*

**Example 4 (No Relevant Info):**
Input Text:
I should move down and left now.

Objects to Look For: target, hole

Expected JSON Output:
\`\`\`json
[]
\`\`\`

**Example 5 (No Relevant Info):**
Input Text:
The player should move to the gift box to avoid the hole and reach the target.

Objects to Look For: target, hole

Expected JSON Output:
\`\`\`json
[]
\`\`\`
---
Input Text to Parse:
${description}

Objects to Look For: target, hole

JSON Output:
`;
}
