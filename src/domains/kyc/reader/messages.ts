/** End-user-safe texts. They never name a provider, a library or an internal identifier. */
export const MSG = {
  blurry: 'The photo looks blurry. Retake it in good light, holding the camera steady.',
  lowResolution:
    'The photo is too small to read reliably. Move closer so the document fills the frame, or use a higher-resolution camera.',
  tooDark: 'The photo is too dark. Retake it in brighter, even light.',
  tooBright: 'The photo is overexposed or has glare. Avoid direct light or flash on the document.',
  lowContrast:
    'The document is hard to make out. Place it on a plain, contrasting background and retake the photo.',
  unsupportedImage: 'This file type is not supported. Upload a JPEG or PNG photo of the document.',
  tooLarge:
    'This photo is too large to check. Upload a smaller JPEG or PNG photo of the document; a normal phone photo is fine.',
  undecodable: 'We could not open this image. Upload a JPEG or PNG photo of the document.',
  hopeless:
    'We could not make out a document in this photo. Retake it in good light with the whole document in view.',
  barcodeMissing:
    'We could not read the barcode on the back of the document. Retake the photo with the whole barcode in view, in good light and in focus.',
  barcodeInvalid:
    'The barcode on the back of the document could not be read as identity data. Make sure you photographed the back of a driver licence or ID card.',
  mrzMissing:
    'We could not read the machine-readable lines at the bottom of the document. Retake the photo with the whole page in view, flat, in good light and in focus.',
  mrzInvalid:
    'The machine-readable lines of the document did not pass their checks. Retake the photo flat and in focus, without glare on the bottom lines.',
  expired: 'This document has expired. Upload a document that is currently valid.',
  frontNotRead: 'We could not read the details on the front; you can enter or confirm them in the next step.',
  backNotRead:
    'We could not read any data from the back of the document; you can enter or confirm your details instead.',
  countryMismatch:
    'The document appears to be from a different country than the one selected. Please check your selection.',
} as const;
