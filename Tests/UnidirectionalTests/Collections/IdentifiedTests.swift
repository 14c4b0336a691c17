import Foundation
import Testing
import Unidirectional

// TCA's `Identified`: a value and its id, for collections of values that are not `Identifiable`.

@Suite struct IdentifiedTests {
  @Test func anIDGivenOrReadFromTheValue() {
    #expect(Identified("Blob", id: 1).id == 1)
    #expect(Identified("Blob", id: \.count).id == 4)
    #expect(Identified("Blob", id: { $0.uppercased() }).id == "BLOB")
  }

  @Test func theValuesMembersByDynamicMemberLookup() {
    var name = Identified("Blob", id: 1)
    #expect(name.count == 4)
    name.value = "Blob Jr."
    #expect(name.count == 8)
    var point = Identified(SIMD2<Int>(1, 2), id: "p")
    point.x = 5
    #expect(point.value == SIMD2(5, 2))
  }

  @Test func inAnIdentifiedArray() {
    var names = IdentifiedArrayOf<Identified<Int, String>>()
    names.append(Identified("Blob", id: 1))
    names.append(Identified("Blob Jr.", id: 2))
    names[id: 2]?.value = "Blob Sr."
    #expect(names.map(\.value) == ["Blob", "Blob Sr."])
  }

  @Test func equatableCodableAndMapped() throws {
    let name = Identified("Blob", id: 1)
    #expect(name == Identified("Blob", id: 1))
    #expect(name != Identified("Blob", id: 2) || name.value != "Blob")
    let data = try JSONEncoder().encode(name)
    #expect(try JSONDecoder().decode(Identified<Int, String>.self, from: data) == name)
    #expect(name.map(\.count) == Identified(4, id: 1))
  }
}
