import Foundation

/// The root layer of a simulated model: a USD ASCII (`.usda`) scene with a unit cube mesh standing in for the
/// reconstructed object, and the list of shot files it was made from in the layer's `customLayerData`.
///
/// It is what the Linux simulator can honestly produce without photogrammetry: a valid scene any USD viewer
/// opens, packaged with the real shots.
///
/// ```swift
/// let text = USDASceneLayer(shotPaths: ["textures/shot-001.png"]).text
/// // #usda 1.0 …
/// ```
public struct USDASceneLayer: Hashable, Sendable {
  /// The shots' paths inside the package.
  public var shotPaths: [String]

  /// The layer's path inside the package (the first file of a USDZ).
  public static let fileName = "scene.usda"

  /// A layer listing `shotPaths`.
  public init(shotPaths: [String]) {
    self.shotPaths = shotPaths
  }

  /// The layer's text.
  public var text: String {
    let shots = shotPaths.map { "\"\($0)\"" }.joined(separator: ", ")
    return """
      #usda 1.0
      (
          customLayerData = {
              string generator = "Unidirectional capture simulator"
              string[] shots = [\(shots)]
          }
          defaultPrim = "Scan"
          doc = "Simulated reconstruction from \(shotPaths.count) shot\(shotPaths.count == 1 ? "" : "s")"
          metersPerUnit = 1
          upAxis = "Y"
      )

      def Xform "Scan" (
          kind = "component"
      )
      {
          def Mesh "Model"
          {
              float3[] extent = [(-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)]
              int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
              int[] faceVertexIndices = [0, 1, 3, 2, 2, 3, 5, 4, 4, 5, 7, 6, 6, 7, 1, 0, 1, 7, 5, 3, 6, 0, 2, 4]
              point3f[] points = [(-0.5, -0.5, 0.5), (0.5, -0.5, 0.5), (-0.5, 0.5, 0.5), (0.5, 0.5, 0.5), \
      (-0.5, 0.5, -0.5), (0.5, 0.5, -0.5), (-0.5, -0.5, -0.5), (0.5, -0.5, -0.5)]
              uniform token subdivisionScheme = "none"
          }
      }

      """
  }
}
