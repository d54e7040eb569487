// The game fields of a new game (templates/_game_settings.html, made from the games'
// catalogues), whose ids start with the page's prefix: which game, its options as the API
// takes them, and the seat chosen. Only the chosen game's fields are shown.
export function gameFields(prefix) {
  const choice = document.getElementById(`${prefix}game`);
  const form = choice.closest("form");
  const fieldsOf = (key) => form.querySelector(`[data-kind-fields="${CSS.escape(key)}"]`);
  const key = () => choice.value;
  const show = () => {
    for (const box of form.querySelectorAll("[data-kind-fields]")) box.hidden = box.dataset.kindFields !== key();
  };
  choice.addEventListener("change", show);
  show();
  return {
    key,
    options() {
      const out = {};
      for (const input of fieldsOf(key()).querySelectorAll("[data-option]")) {
        out[input.dataset.option] = input.dataset.optionKind === "bool" ? input.checked : choiceValue(input);
      }
      return out;
    },
    // a match of linked games (a kind whose package supports matches offers it)
    match() {
      return !!fieldsOf(key()).querySelector("[data-match]")?.checked;
    },
    seatChoice: () => fieldsOf(key()).querySelector("[data-seat-choice]"),
    seat() {
      return this.seatChoice().value;
    },
    // every seat of the chosen game (the seat choice lists them, and maybe "random")
    seats() {
      return Array.from(this.seatChoice().options, (o) => o.value).filter((s) => s !== "random");
    },
  };
}

// A choice's value as the catalogue has it (a number stays a number), kept as JSON.
function choiceValue(select) {
  const json = select.selectedOptions[0]?.dataset.value;
  return json === undefined ? select.value : JSON.parse(json);
}
