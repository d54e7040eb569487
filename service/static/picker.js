// The language picker on every page (base.html): choosing a language sends the form at
// once; without scripts its button does.
const form = document.querySelector("form.lang-picker");
if (form) {
  form.querySelector("select")?.addEventListener("change", () => form.requestSubmit());
  form.querySelector("button")?.classList.add("sr-only");
}
