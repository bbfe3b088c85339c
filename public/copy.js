// Copy buttons beside commands: shown only when this script runs, so without script the command is plain, selectable text.
for (const button of document.querySelectorAll('.copyable button.copy')) {
  const code = button.parentElement.querySelector('code');
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(code.textContent);
      button.textContent = 'Copied';
    } catch {
      // No clipboard access (an insecure origin, a refused permission): select the text for Ctrl+C instead.
      getSelection().selectAllChildren(code);
      button.textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => (button.textContent = 'Copy'), 2000);
  });
}
