// The API tokens page (templates/league/tokens.html): the new key's copy button, shown only where
// it works (it stays hidden without JavaScript: the key's field can be selected and copied by hand).
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    const label = button.textContent;
    button.hidden = false;
    button.addEventListener("click", function () {
      field.select();
      const done = function () {
        button.textContent = button.dataset.copied || label;
        setTimeout(function () { button.textContent = label; }, 2000);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
      } else {
        document.execCommand("copy");
        done();
      }
    });
  });
  // A click in the key's field selects all of it.
  document.querySelectorAll("input[readonly][data-testid='token-key']").forEach(function (field) {
    field.addEventListener("focus", function () { field.select(); });
  });
})();
