// The time control fields of a new game (templates/_game_settings.html), whose ids start
// with the page's prefix: what applies is shown, and the choice is read as the API takes it.
export function clockFields(prefix) {
  const $ = (id) => document.getElementById(prefix + id);
  return {
    rated: () => $("rated").checked,
    // Rows that do not apply are hidden; a rated game always forfeits on time.
    show({ ratable = true } = {}) {
      $("rated").disabled = !ratable;
      if (!ratable) $("rated").checked = false;
      const timed = !!$("per-move").value;
      for (const row of $("clock-fields").querySelectorAll(".clock-only")) row.hidden = !timed;
      $("on-timeout").disabled = $("rated").checked;
      if ($("rated").checked) $("on-timeout").value = "forfeit";
    },
    hide(hidden) {
      $("clock-fields").hidden = hidden;
    },
    // The time control chosen (null: no clock).
    chosen() {
      if ($("clock-fields").hidden || !$("per-move").value) return null;
      return {
        per_move_seconds: Number($("per-move").value),
        bank_seconds: Number($("bank").value),
        vacation_days: Number($("vacation").value),
        on_timeout: $("rated").checked ? "forfeit" : $("on-timeout").value,
      };
    },
  };
}
