// Talking to the server: every call answers JSON or throws an Error with the server's message.
export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.error?.message ?? `HTTP ${response.status}`);
    error.status = response.status;
    error.code = data.error?.code;
    throw error;
  }
  return data;
}

export function toast(message, kind = "info") {
  const node = document.getElementById("toast");
  node.textContent = message;
  node.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { node.className = ""; }, 4000);
}
