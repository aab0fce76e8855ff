import numpy as np

t = np.arange(64)
signal = np.sin(2 * np.pi * 4 * t / 64)
spectrum = np.abs(np.fft.rfft(signal))
print(int(np.argmax(spectrum)))
