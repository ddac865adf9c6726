import test from 'ava';
import { ImageError, MAX_IMAGE_BYTES, isImagePath, sniffImage, toDataUrl, toImage } from '../../../actors/images/image.js';
import { OCR_UNAVAILABLE_ON_LINUX, ocrImage } from '../../../actors/images/ocr.js';
import { TINY_PNG } from '../../helpers/png.js';

test('image types are told by their bytes, not their names', (t) => {
  t.is(sniffImage(TINY_PNG), 'image/png');
  t.is(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0])), 'image/jpeg');
  t.is(sniffImage(Buffer.from('GIF89a......')), 'image/gif');
  t.is(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
  t.is(sniffImage(Buffer.from('%PDF-1.7')), undefined);
  t.true(isImagePath('shots/Screen.PNG'));
  t.false(isImagePath('notes.txt'));
});

test('a non-image or an oversized image is refused in one sentence', (t) => {
  t.throws(() => toImage(Buffer.from('hello'), 'notes.png'), { instanceOf: ImageError, message: 'notes.png is not a PNG, JPEG, WebP or GIF image' });
  const huge = Buffer.concat([TINY_PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
  t.throws(() => toImage(huge, 'big.png'), { instanceOf: ImageError, message: /big\.png is 10\.0 MB; images over 10 MB are refused/ });
  t.is(toDataUrl(toImage(TINY_PNG, 'x.png')), `data:image/png;base64,${TINY_PNG.toString('base64')}`);
});

test('OCR on Linux says it is unavailable and what to set instead', async (t) => {
  const image = toImage(TINY_PNG, 'clipboard');
  await t.throwsAsync(ocrImage(image, { platform: 'linux' }), { instanceOf: ImageError, message: OCR_UNAVAILABLE_ON_LINUX });
  t.is(OCR_UNAVAILABLE_ON_LINUX, 'OCR unavailable on Linux — set REIKA_VISION_MODEL or REIKA_VISION=native');
});

test('OCR whose native module does not load fails with a clear message, not a crash', async (t) => {
  if (process.platform === 'darwin' || process.platform === 'win32') return t.pass('the module may load on this platform');
  const image = toImage(TINY_PNG, 'clipboard');
  await t.throwsAsync(ocrImage(image, { platform: 'darwin' }), { instanceOf: ImageError, message: /^OCR unavailable: @napi-rs\/system-ocr did not load .* set REIKA_VISION_MODEL/ });
});
