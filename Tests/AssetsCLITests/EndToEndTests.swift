import Foundation
import Testing

/// Runs the built `assets` binary and checks stdout, stderr and the exit status.
@Suite struct EndToEndTests {
    @Test func sayPrintsTextThenTokens() throws {
        let run = try AssetsProcess.run(["say", "100010", "--style", "formatter"])
        #expect(run.status == 0)
        #expect(run.stdout == "十万〇一十元整\n十 万 〇 一 十 元 整\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func sayTheDoneWhenExamples() throws {
        #expect(try AssetsProcess.run(["say", "200", "--style", "spoken"]).stdout.hasPrefix("两百元整\n"))
        #expect(try AssetsProcess.run(["say", "1234.56", "--style", "financial"]).stdout.hasPrefix("壹仟贰佰叁拾肆元伍角陆分\n"))
    }

    @Test func sayAsJSON() throws {
        let run = try AssetsProcess.run(["say", "¥1,234.50", "--format", "json"])
        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["text"] as? String == "一千二百三十四元五角")
        #expect(object?["tokens"] as? [String] == ["一", "千", "二", "百", "三", "十", "四", "元", "五", "角"])
        #expect(object?["amount"] as? String == "1234.50")
    }

    @Test func badAmountIsOneLineOnStderrAndExitTwo() throws {
        let run = try AssetsProcess.run(["say", "12e3"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("'12e3'"))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func alphabetListsTheVariants() throws {
        func tokens(_ arguments: String...) throws -> [String] {
            let run = try AssetsProcess.run(["alphabet"] + arguments)
            #expect(run.status == 0)
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try tokens("--styles", "formatter").contains("〇"))
        let hant = try tokens("--styles", "formatter-hant")
        #expect(hant.contains("億") && hant.contains("萬"))
        let financial = try tokens("--styles", "financial")
        #expect(financial.contains("壹") && financial.contains("仟"))
        #expect(try !tokens("--styles", "spoken", "--forms", "yuan").contains("点"))
        #expect(try tokens("--styles", "spoken", "--forms", "yuan,decimal").contains("点"))
        // In the order a voice talent reads them: zeros, digits, units, the point, the money words.
        #expect(try tokens("--styles", "spoken", "--forms", "yuan,decimal") == "零一二三四五六七八九两十百千万亿点元角分整".map(String.init))
        let all = try tokens()
        #expect(all.prefix(4) == ["零", "〇", "一", "二"] && all.suffix(4) == ["元", "角", "分", "整"], "\(all)")
        #expect(Set(all).count == all.count)
    }

    @Test func versionAndHelpExitZero() throws {
        let version = try AssetsProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("assets "))
        for command in ["say", "alphabet", "build", "check", "audit"] {
            let help = try AssetsProcess.run([command, "--help"])
            #expect(help.status == 0, "\(command) --help")
            #expect(help.stdout.contains("usage: assets"), "\(command) --help")
        }
    }

    @Test func unknownCommandExitsTwo() throws {
        let run = try AssetsProcess.run(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("unknown command 'frobnicate'"))
    }
}
