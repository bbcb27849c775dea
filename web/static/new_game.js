// New-game form: show the set-up of the chosen game, number players in the order they are ticked.
(function () {
  "use strict";
  const form = document.getElementById("new-game");
  if (!form) return;
  const order = [];
  function showGame() {
    const game = form.querySelector("input[name=game]:checked").value;
    form.querySelectorAll("[data-for]").forEach((el) => { el.hidden = el.dataset.for !== game; });
  }
  function renumber() {
    form.querySelectorAll("input[data-colour]").forEach((box) => {
      const i = order.indexOf(box.dataset.colour);
      box.parentElement.querySelector(".num").textContent = i >= 0 ? String(i + 1) : "";
    });
    document.getElementById("order").value = order.join(",");
  }
  form.querySelectorAll("input[name=game]").forEach((r) => r.addEventListener("change", showGame));
  form.querySelectorAll("input[data-colour]").forEach((box) => box.addEventListener("change", () => {
    const c = box.dataset.colour, i = order.indexOf(c);
    if (box.checked && i < 0) order.push(c);
    if (!box.checked && i >= 0) order.splice(i, 1);
    renumber();
  }));
  showGame();
})();
