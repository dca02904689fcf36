/** The verification page's own style (added to htmlDocument's base) and script, under the CSP nonce. */

export const PAGE_STYLE = `
body{background:#fff}
main{max-width:32rem}
section{border:0;padding:0}
fieldset{border:1px solid #d7dce2;border-radius:8px;margin:0 0 1rem;padding:.8rem 1rem}
legend{font-weight:600;padding:0 .3rem}
label{display:block;font-size:.9rem;margin-top:.6rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #aab3bd;border-radius:6px}
button{margin-top:0}
button[disabled]{opacity:.5;cursor:default}
video{width:100%;max-height:16rem;background:#111;border-radius:6px;margin:.5rem 0}
.hint{margin:.2rem 0}
.reason{background:#fff7d6;padding:.6rem .8rem;border-radius:6px}
.field-error,.form-error{color:#b3261e;font-size:.85rem;margin:.2rem 0 0;min-height:0}
`;

export const PAGE_SCRIPT = `
(() => {
  const root = document.getElementById('kyc');
  const form = document.getElementById('details');
  if (!root || !form) return;
  const session = root.dataset.session;
  const needsScan = root.dataset.faceScan === '1';
  const finish = document.getElementById('finish');
  const scanButton = document.getElementById('scan');
  const scanStatus = document.getElementById('scan-status');
  const video = document.getElementById('camera');
  const formError = document.getElementById('form-error');
  let frames = [];
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  if (needsScan) finish.disabled = true;

  async function scan() {
    scanButton.disabled = true;
    scanStatus.textContent = 'Starting the camera…';
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' }, audio: false });
    } catch (e) {
      scanStatus.textContent = 'We could not use the camera. Allow camera access and try again.';
      scanButton.disabled = false;
      return;
    }
    video.srcObject = stream;
    await video.play();
    scanStatus.textContent = 'Look at the camera and move your head slightly…';
    const canvas = document.createElement('canvas');
    const taken = [];
    for (let i = 0; i < 3; i++) {
      await sleep(600);
      canvas.width = video.videoWidth || 640;
      canvas.height = video.videoHeight || 480;
      canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
      taken.push(canvas.toDataURL('image/jpeg', 0.85).split(',')[1]);
    }
    stream.getTracks().forEach((t) => t.stop());
    video.srcObject = null;
    frames = taken;
    scanStatus.textContent = 'Face scan complete.';
    scanButton.textContent = 'Scan again';
    scanButton.disabled = false;
    finish.disabled = false;
  }
  if (scanButton) scanButton.addEventListener('click', scan);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.textContent = '';
    for (const el of form.querySelectorAll('[data-error-for]')) el.textContent = '';
    const fields = {};
    for (const input of form.querySelectorAll('input[name]')) fields[input.name] = input.value;
    if (needsScan && frames.length === 0) { formError.textContent = 'Complete the face scan first.'; return; }
    finish.disabled = true;
    let response;
    try {
      response = await fetch('/kyc/verify/submit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(needsScan ? { session, fields, frames } : { session, fields }),
      });
    } catch (e) {
      formError.textContent = 'Network error. Try again.';
      finish.disabled = false;
      return;
    }
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = body.error || {};
      formError.textContent = error.message || 'Something went wrong. Try again.';
      for (const [name, message] of Object.entries(error.field_errors || {})) {
        const el = form.querySelector('[data-error-for="' + CSS.escape(name) + '"]');
        if (el) el.textContent = message;
      }
      finish.disabled = false;
      return;
    }
    root.dataset.status = body.status;
    if (body.status === 'pending') {
      form.hidden = true;
      document.getElementById('done').hidden = false;
    } else {
      formError.textContent = 'Saved. Continue with the next step.';
      finish.disabled = false;
    }
  });
})();
`;
