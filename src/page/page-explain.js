// unfold's page: why a search ranked what it ranked (the explanation the face's explain route
// gives). Tool text is only ever set as text.

import { $, face, fail, say } from "./page-core.js";

export async function explain(event) {
  event.preventDefault();
  const query = $("query").value.trim();
  const id = $("expected").value.trim();
  if (query === "") {
    say("Type what the model would search for");
    $("query").focus();
    return;
  }
  try {
    const body = await face().explain(query, id);
    say("");
    $("search-words").textContent = body.words.length === 0
      ? "The query has no searchable word (only stop-words or markup)."
      : `Searched words: ${body.words.join(", ")}`;
    $("results").replaceChildren(...body.results.map(resultItem));
    const target = $("target");
    target.hidden = !body.target;
    target.textContent = body.target ? `${body.target.id}: ${body.target.reason}` : "";
  } catch (error) {
    clearExplain();
    fail(error);
  }
}

/** Clears the last explanation: it never stays beside an error or a new catalogue. */
export function clearExplain() {
  $("search-words").textContent = "";
  $("results").replaceChildren();
  $("target").hidden = true;
}

function resultItem(result) {
  const li = document.createElement("li");
  const id = document.createElement("span");
  id.className = "id";
  id.textContent = result.id;
  li.append(id, ` score ${result.score}`);
  const chips = document.createElement("ul");
  chips.className = "chips";
  chips.setAttribute("aria-label", `Query words ${result.id} matched`);
  for (const m of result.matches) {
    const chip = document.createElement("li");
    chip.textContent = m.kind === "semantic"
      ? `${m.word}: semantic`
      : `${m.word} → ${m.term} (${m.kind}, ${m.field})`;
    chips.append(chip);
  }
  for (const word of result.missing) {
    const chip = document.createElement("li");
    chip.className = "missing";
    chip.textContent = `${word}: not matched`;
    chips.append(chip);
  }
  // What the user ran moved it: say so, and where it ranked without.
  if (result.learned) {
    const chip = document.createElement("li");
    chip.className = "learned";
    chip.textContent = `lifted by what you ran: ${
      result.learned.rankWithout === null
        ? "not in the first results without it"
        : `ranked ${result.learned.rankWithout} without it`
    }`;
    chips.append(chip);
  }
  li.append(chips);
  return li;
}
