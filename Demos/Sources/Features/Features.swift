// The umbrella module: `import Features` gives a host every feature and the modules they share, as one import.
// Each feature is also its own module (and product), for clients that want only what they use.
@_exported import Archive
@_exported import CaptureSession
@_exported import Gallery
@_exported import HTTPClient
@_exported import ImageGeneration
@_exported import ImageUpload
@_exported import Images
@_exported import LocalFiles
@_exported import ModelReconstruction
@_exported import PhotoAnalysis
@_exported import Scan
@_exported import Transfer
